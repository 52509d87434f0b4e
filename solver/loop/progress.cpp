// Progress reporting; the rate is the norm's decay between the last two checks and the ETA
// extrapolates it geometrically, which holds once the slowest Jacobi mode dominates.
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

double decades_per_1000(std::int64_t it0, double norm0, std::int64_t it1, double norm1) {
  if (it1 <= it0 || !(norm0 > 0) || !(norm1 > 0) || !std::isfinite(norm0) || !std::isfinite(norm1))
    return std::nan("");
  return 1000.0 * (std::log10(norm1) - std::log10(norm0)) / static_cast<double>(it1 - it0);
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
  const double decades = decades_per_1000(prev_it_, prev_norm_, it, norm);
  char trend[48] = "";
  if (std::isfinite(decades))
    std::snprintf(trend, sizeof trend, "  %+.3g decades/1000 %s", decades,
                  to_end_ ? "steps" : "it");
  char buf[200];
  if (to_end_)
    std::snprintf(buf, sizeof buf, "step %lld/%lld  norm %.3e%s  ETA %s  %.3g cells/s",
                  static_cast<long long>(it), static_cast<long long>(max_iterations_), norm, trend,
                  eta.c_str(), rate);
  else
    std::snprintf(buf, sizeof buf,
                  "iteration %lld/%lld  norm %.3e (target %.2e)%s  ETA %s  %.3g cells/s",
                  static_cast<long long>(it), static_cast<long long>(max_iterations_), norm, target,
                  trend, eta.c_str(), rate);
  return buf;
}

void Progress::check(std::int64_t it, double norm, double target, const std::string& detail) {
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
    spdlog::info("{}{}{}", text, detail.empty() ? "" : "  ", detail);
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
