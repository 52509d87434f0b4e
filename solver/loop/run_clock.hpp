// Where a run's time goes (summary.json "timings", the final log line): set-up from the start of
// the process to the first iteration, the loop less the output it waited for, the output
// (snapshots, checkpoints, history), and the whole process. One clock per process; the loops
// mark their start and end, FieldWriter and the history times its writes.
#pragma once

#include <chrono>
#include <string>

#include "run_output.hpp"

namespace fdsolve {

class RunClock {
 public:
  static RunClock& get();

  /// The process's start (main(), before anything else); also a fresh clock for tests.
  void start_process();
  void loop_started();
  void loop_ended();
  /// Seconds spent writing output (a snapshot, a checkpoint, the history), on the loop's thread.
  void add_output(double seconds);

  /// The split so far: total is now minus the process start.
  output::RunTimings timings() const;

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point process_ = Clock::now();
  Clock::time_point loop_start_{}, loop_end_{};
  bool in_loop_ = false, loop_seen_ = false;
  double output_ = 0, output_in_loop_ = 0;
};

/// Adds the time of its scope to the run's output seconds.
class OutputTimer {
 public:
  OutputTimer() : start_(std::chrono::steady_clock::now()) {}
  ~OutputTimer() {
    RunClock::get().add_output(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  OutputTimer(const OutputTimer&) = delete;
  OutputTimer& operator=(const OutputTimer&) = delete;

 private:
  std::chrono::steady_clock::time_point start_;
};

/// "set-up 1.23 s, solve 0.05 s, output 0.40 s (the loop waited 0.10 s), total 1.70 s".
std::string describe_timings(const output::RunTimings& t);

}  // namespace fdsolve
