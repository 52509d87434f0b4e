// What `run --resume` checks about a checkpoint beyond its case (checkpoint.hpp): that it is
// where the run in its directory ended, not an older state, and for heat that its step lies on
// the steps of the case as resumed, so that the continued run is one longer run. Also what a
// run says or tidies about the directory's files from earlier sessions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "case.hpp"
#include "loop/checkpoint.hpp"

namespace fdsolve {

/// How the last session of a run in an output directory ended, from its summary.json, which a
/// session writes as it ends (any stop but a crash) and a fresh run removes as it starts.
struct SessionEnd {
  std::int64_t iterations = 0;  // iterations, cycles or steps done in all
  std::string status;           // summary.json's status (converged, completed, diverged, ...)
};

/// The end recorded in <directory>/summary.json; none when there is no such file or it does
/// not read as one.
std::optional<SessionEnd> read_session_end(const std::string& directory);

/// Throws InputError when the run in the case's output directory ended after the checkpoint's
/// state (summary.json names a later iteration): a directory of an fdsolve that kept no end
/// checkpoint, or a run that diverged after its last checkpoint (or at it, where an input
/// turned non-finite). A heat run that completed one step after its checkpoint is not refused:
/// that is the state before its last step, from which a longer run continues
/// (end_checkpoint.hpp). Removing summary.json lifts the refusal.
void check_checkpoint_is_latest(const Case& c, const LoopState& checkpoint);

/// Heat: throws InputError unless the checkpoint's step ends, with this case's steps, exactly
/// at the checkpoint's time (or the checkpoint is at time.end already): a time.end before the
/// checkpoint's time, or a state after a last step shortened to land on an earlier time.end
/// (a longer run takes a full step there), cannot be continued as one run. Other equations:
/// nothing to check.
void check_heat_continuation(const Case& c, const LoopState& checkpoint);

/// Whether `checkpoint` is the state before the last step of a heat run that completed (the
/// continued run takes that step again, with the full dt), judged by `end`.
bool before_completed_last_step(const Case& c, const LoopState& checkpoint,
                                const std::optional<SessionEnd>& end);

/// Removes <output directory>/summary.json left by an earlier run, as a fresh run (not
/// --resume) starts: the file then always describes how the run whose checkpoint and
/// snapshots are in the directory ended, which check_checkpoint_is_latest relies on.
void remove_earlier_summary(const Case& c);

/// The snapshot files of the case's name in its output directory that `index` (a
/// checkpoint's, restored) does not list: last states of earlier sessions, which stay on disk.
std::vector<std::string> unlisted_snapshots(const Case& c,
                                            const std::vector<output::XdmfEntry>& index);

}  // namespace fdsolve
