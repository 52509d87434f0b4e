// Where a run's time goes (summary.json "timings", the final log line): set-up from the start of
// the process to the first iteration, the loop less the output it waited for, the output
// (snapshots, checkpoints, history), the time the run waited for output, and the whole process.
// One clock per process; the solve loop marks its start and end, the writer thread adds the time
// it spends writing, the loop's thread the time it waits for output (handing a field over, a
// full queue, writes made on its own thread).
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "run_output.hpp"

namespace fdsolve {

class RunClock {
 public:
  static RunClock& get();

  /// The process's start (main(), before anything else); also a fresh clock for tests.
  void start_process();
  /// Records that set-up reached `stage` (summary.json's timings.setup_stages: the seconds from
  /// the mark before) and logs it at debug level with the seconds since the start. Marks made
  /// while a loop runs are logged only.
  void mark(const char* stage);
  void loop_started();
  void loop_ended();
  /// Seconds spent writing output (a snapshot, a checkpoint, the history), on any thread.
  void add_output(double seconds);
  /// Seconds the run's thread spent on output instead of its own work (in the loop: taken off
  /// the solve's time).
  void add_output_wait(double seconds);

  /// The split so far: total is now minus the process start.
  output::RunTimings timings() const;

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point process_ = Clock::now();
  Clock::time_point loop_start_{}, loop_end_{};
  struct Mark {
    const char* stage;
    Clock::time_point at;
  };
  std::vector<Mark> marks_;  // set-up's stages, in order
  bool in_loop_ = false, loop_seen_ = false;
  mutable std::mutex mutex_;  // output_ grows on the writer thread
  double output_ = 0;
  double wait_ = 0, wait_in_loop_ = 0;
};

/// Adds the time of its scope to the run's output seconds and, when `waited` (the run's thread
/// writing, or handing over), to the time the run waited for output; a write on the writer
/// thread passes false, a hand-over that writes nothing counts as waiting only.
class OutputTimer {
 public:
  enum class Counts { written_and_waited, written, waited };
  explicit OutputTimer(Counts counts = Counts::written_and_waited)
      : counts_(counts), start_(std::chrono::steady_clock::now()) {}
  ~OutputTimer() {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (counts_ != Counts::waited) RunClock::get().add_output(s);
    if (counts_ != Counts::written) RunClock::get().add_output_wait(s);
  }
  OutputTimer(const OutputTimer&) = delete;
  OutputTimer& operator=(const OutputTimer&) = delete;

 private:
  Counts counts_;
  std::chrono::steady_clock::time_point start_;
};

/// "set-up 1.23 s, solve 0.05 s, output 0.40 s (the loop waited 0.10 s), total 1.70 s".
std::string describe_timings(const output::RunTimings& t);

}  // namespace fdsolve
