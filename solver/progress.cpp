// Progress reporting; the ETA assumes the Jacobi norm decays geometrically, which it does once
// the slowest mode dominates.
#include "progress.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>

namespace fdsolve {

double iterations_to_target(std::int64_t it0, double norm0, std::int64_t it1, double norm1,
                            double target) {
  if (it1 <= it0 || !(norm0 > 0) || !(norm1 > 0) || !(target > 0)) return -1;
  if (norm1 <= target) return 0;
  const double rate = (std::log(norm1) - std::log(norm0)) / static_cast<double>(it1 - it0);
  if (!(rate < 0)) return -1;
  return (std::log(target) - std::log(norm1)) / rate;
}

Progress::Progress(bool live, std::int64_t max_iterations, std::int64_t cells,
                   std::int64_t start, bool to_end)
    : live_(live),
      max_iterations_(max_iterations),
      cells_(cells),
      start_iteration_(start),
      to_end_(to_end),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_ - std::chrono::seconds(10)) {}

Progress::~Progress() { finish(); }

std::string Progress::line(std::int64_t it, double norm, double target, double seconds) const {
  const double done = static_cast<double>(it - start_iteration_);
  const double rate = seconds > 0 ? done * cells_ / seconds : 0;
  std::string eta = "?";
  const double remaining = to_end_ ? static_cast<double>(max_iterations_ - it)
                                   : iterations_to_target(prev_it_, prev_norm_, it, norm, target);
  if (remaining >= 0 && seconds > 0 && done > 0) {
    const double its = std::min(remaining, static_cast<double>(max_iterations_ - it));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0fs", its * seconds / done);
    eta = buf;
  }
  char buf[160];
  if (to_end_)
    std::snprintf(buf, sizeof buf, "step %lld/%lld  norm %.3e  %.3g cells/s  ETA %s",
                  static_cast<long long>(it), static_cast<long long>(max_iterations_), norm, rate,
                  eta.c_str());
  else
    std::snprintf(buf, sizeof buf,
                  "iteration %lld/%lld  norm %.3e (target %.2e)  %.3g cells/s  ETA %s",
                  static_cast<long long>(it), static_cast<long long>(max_iterations_), norm,
                  target, rate, eta.c_str());
  return buf;
}

void Progress::check(std::int64_t it, double norm, double target) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - start_).count();
  // Extrapolate from the previous check, which spans check_every iterations.
  prev_it_ = last_it_;
  prev_norm_ = last_norm_;
  last_it_ = it;
  last_norm_ = norm;
  const bool due = now - last_report_ >= std::chrono::milliseconds(live_ ? 200 : 1000);
  if (!due) return;
  last_report_ = now;
  const std::string text = line(it, norm, target, seconds);
  if (live_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
  } else {
    spdlog::info("{}", text);
  }
}

void Progress::finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace fdsolve
