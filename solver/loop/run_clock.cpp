// See run_clock.hpp.
#include "run_clock.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace fdsolve {
namespace {

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

RunClock& RunClock::get() {
  static RunClock clock;
  return clock;
}

void RunClock::start_process() {
  std::lock_guard lock(mutex_);
  process_ = Clock::now();
  loop_start_ = loop_end_ = {};
  in_loop_ = loop_seen_ = false;
  output_ = wait_ = wait_in_loop_ = 0;
  marks_.clear();
}

void RunClock::mark(const char* stage) {
  const Clock::time_point now = Clock::now();
  spdlog::debug("set-up: {} at {:.3f} s", stage, seconds(now - process_));
  std::lock_guard lock(mutex_);
  if (!in_loop_) marks_.push_back({stage, now});
}

void RunClock::loop_started() {
  mark("first iteration");
  std::lock_guard lock(mutex_);
  // The stages end where the loop starts. A loop run during set-up (the coarser grid of
  // solve.tolerance: discretization) is a stage of it: the last loop is the run's.
  loop_start_ = marks_.back().at;
  in_loop_ = loop_seen_ = true;
}

void RunClock::loop_ended() {
  std::lock_guard lock(mutex_);
  loop_end_ = Clock::now();
  in_loop_ = false;
}

void RunClock::add_output(double s) {
  std::lock_guard lock(mutex_);
  output_ += s;
}

void RunClock::add_output_wait(double s) {
  std::lock_guard lock(mutex_);
  wait_ += s;
  if (in_loop_) wait_in_loop_ += s;
}

output::RunTimings RunClock::timings() const {
  std::lock_guard lock(mutex_);
  output::RunTimings t;
  const Clock::time_point now = Clock::now();
  t.total = seconds(now - process_);
  t.output = output_;
  t.output_wait = wait_;
  if (loop_seen_) {
    const Clock::time_point end = in_loop_ ? now : loop_end_;
    t.setup = seconds(loop_start_ - process_);
    t.solve = seconds(end - loop_start_) - wait_in_loop_;
    Clock::time_point from = process_;
    for (const Mark& m : marks_) {
      t.setup_stages.push_back({m.stage, seconds(m.at - from)});
      from = m.at;
    }
  } else {
    t.setup = t.total - wait_;  // no loop ran (an error before it)
  }
  t.measured = true;
  return t;
}

std::string describe_timings(const output::RunTimings& t) {
  return fmt::format("set-up {:.3f} s, solve {:.3f} s, output {:.3f} s (the loop waited {:.3f} s), "
                     "total {:.3f} s",
                     t.setup, t.solve, t.output, t.output_wait, t.total);
}

}  // namespace fdsolve
