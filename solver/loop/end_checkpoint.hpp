// The checkpoint a run leaves where it ends, so that `run --resume OUTDIR` can take it further
// (docs/commands.md, "Continuing a finished run"):
// - a steady run with checkpoints on (checkpoint.every > 0) that converged, reached
//   max_iterations or stalled keeps its last state: a smaller tolerance or more iterations
//   continue from there. Without checkpoints it keeps none: its state is the final snapshot's,
//   and a second copy of a large field would double the output a user waits for at the end
//   (docs/performance.md, "Large runs");
// - a heat run that reached time.end keeps the state before its last step, handed to the
//   writer as that step starts. The last step is shortened to land on time.end (and even when
//   time.end is a whole number of steps, rounding makes it differ from dt in the last bits),
//   while a longer run takes a full step of dt there: a run continued to a later time.end
//   takes that step again, with dt, and so ends bit-identical to one run to that time. The
//   periodic checkpoint of the last step is skipped, as it would replace that state.
// A diverged state is never checkpointed; the checkpoint before it stays, and `--resume`
// refuses it as older than the run's end (resume_checks.hpp).
#pragma once

#include <cstdint>

#include "case.hpp"
#include "solve_result.hpp"

namespace fdsolve {

/// Whether a steady loop of `c` that ended with `status` leaves a checkpoint of its last state
/// beside the interrupted and time-limited ones, which every loop writes already.
inline bool checkpoints_steady_end(const Case& c, SolveStatus status) {
  return c.checkpoint.every > 0 &&
         (status == SolveStatus::Converged || status == SolveStatus::MaxIterations ||
          status == SolveStatus::Stalled);
}

/// Whether a heat loop that has done `it` of `steps` steps hands over the checkpoint a longer
/// run continues from: the state before the last step.
inline bool before_last_heat_step(std::int64_t it, std::int64_t steps) { return it + 1 == steps; }

}  // namespace fdsolve
