// `fdsolve run`'s signals: SIGINT and SIGTERM during a run ask the loop to stop after the
// running iteration and save a checkpoint (SolveOptions::stop); a second signal kills as usual.
#pragma once

#include <atomic>
#include <csignal>

namespace fdsolve {

/// Set by SIGINT / SIGTERM: the loop stops after the running iteration and saves a checkpoint.
extern std::atomic<bool> g_stop;
/// The signal that set g_stop (0: none).
extern volatile std::sig_atomic_t g_signal;

/// Installs the handler that sets them for the duration of a run; a second signal kills as
/// usual.
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace fdsolve
