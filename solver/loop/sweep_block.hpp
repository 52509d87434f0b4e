// The sweeps between two points where the Jacobi loop must act on the host (checks, snapshots):
// enqueued as a block with no host synchronisation, recorded once as a CUDA graph and replayed,
// so that a small grid's sweep costs a graph node instead of a launch and a loop turn. The
// block computes exactly what the same sweeps run one by one compute (same kernels, same
// arguments, same order): the fields are bit-identical.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "backend.hpp"

namespace fdsolve {

/// Where the loop stands and what makes it stop between sweeps.
struct LoopMarks {
  std::int64_t total = 0;             // the last iteration
  std::int64_t check_every = 1;       // a check at 1, every check_every and at total
  std::int64_t checkpoint_every = 0;  // checkpoints (checked sweeps too); 0: none
  std::int64_t output_every = 0;      // snapshots after the sweep; 0: none
  /// Heat's snapshots at physical times: the steps that land on them (increasing).
  std::vector<std::int64_t> output_steps;
};

/// Whether iteration `it` needs the loop's host work: a checked sweep, or a snapshot after it.
bool needs_host(std::int64_t it, const LoopMarks& m);

/// How many iterations after `done` can run as a block: those before the next one that needs
/// the host (which the loop runs itself), at most to `m.total`.
std::int64_t plain_run_length(std::int64_t done, const LoopMarks& m);

/// Runs blocks of plain sweeps on a backend, recording each block shape once. Kernels that do
/// several sweeps per launch belong in the recorded work of `recording()`: the loop only asks
/// for `count` sweeps and the buffers' parity after them.
template <typename T>
class SweepBlock {
 public:
  /// `fill_ghosts` (may be empty) enqueues the halo fill a field needs before it is swept
  /// (Neumann and periodic faces); it must enqueue work only, no host synchronisation.
  SweepBlock(Backend<T>& backend, KernelId kernel, std::function<void(Buffer<T>&)> fill_ghosts);
  ~SweepBlock();

  /// Enqueues up to `count` sweeps with the weights, source, layout and box of `args`, as that
  /// many turns of the loop would: fill `cur`'s ghosts, sweep cur -> next, swap. Returns how
  /// many: at most kMaxAhead. It waits for the backend once the sweeps enqueued since its last
  /// wait reach kMaxAhead or kMaxAheadUpdates node updates, so that the host never runs far
  /// ahead of the GPU over any number of calls (an interrupt is seen within that much work:
  /// about 0.1 s on an H100 at any grid size). On return `cur` names the latest state.
  std::int64_t run(Buffer<T>& cur, Buffer<T>& next, const SweepArgs<T>& args, std::int64_t count);

  /// Runs the recorded blocks through the temporally blocked `steps_kernel`
  /// (blocked smoothing passes, several sweeps per pass over memory): count - 1 sweeps blocked,
  /// the last one single with `kernel`, so that the state before it stays available. Only
  /// without `fill_ghosts`: the blocked kernels read the halo as it is at the block's start.
  void use_blocked(KernelId steps_kernel) { blocked_ = steps_kernel; }

  /// Sweeps per recording: longer blocks replay it, so one recording serves any length.
  static constexpr std::int64_t kMaxRecorded = 256;
  /// Sweeps enqueued at most before the host waits (one wait per 1024 sweeps: < 1% at 257^2).
  static constexpr std::int64_t kMaxAhead = 4 * kMaxRecorded;
  /// Node updates enqueued at most before the host waits: 1.7e10, about 0.1 s of 7-point double
  /// sweeps on an H100 (500^3 double: 137 sweeps). Without it the host enqueues up to kMaxAhead
  /// sweeps of any size, and an interrupt waits for all of them: seconds at 500^3
  /// (docs/performance-history.md, "Multigrid at any grid size"; docs/performance.md,
  /// "Stopping a long run").
  static constexpr std::int64_t kMaxAheadUpdates = std::int64_t(1) << 34;

 private:
  struct Recording;
  Recording& recording(Buffer<T>& cur, Buffer<T>& next, const SweepArgs<T>& args,
                       std::int64_t count);

  Backend<T>& backend_;
  KernelId kernel_;
  std::function<void(Buffer<T>&)> fill_ghosts_;
  std::optional<KernelId> blocked_;  // use_blocked
  std::int64_t ahead_sweeps_ = 0;    // enqueued since the last wait
  std::int64_t ahead_updates_ = 0;
  std::vector<std::unique_ptr<Recording>> recordings_;
};

}  // namespace fdsolve
