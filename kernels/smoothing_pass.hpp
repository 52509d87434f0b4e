// One smoothing pass of the Jacobi update, as the solver asks for it (Backend::smooth): how many
// sweeps, whether a multigrid coarse correction is added first, whether the first sweep's
// statistics are wanted. The backend decides what it fuses (a blocked variant advancing several
// sweeps per pass over memory, the correction added as the pass reads u, the statistics counted
// inside a pair), so a new fused kernel changes kernels/ and nothing above it.
#pragma once

#include "stencil.hpp"
#include "transfer.hpp"

namespace fdsolve {

/// Whether, and when, a pass reports the statistics of its first sweep's update.
enum class PassStats {
  None,    // no statistics
  Now,     // returned by Backend::smooth once known
  Queued,  // returned later by Backend::collect_stats, in the order the passes were enqueued
};

/// A variant of the backend's kernels (Backend::kernels or Backend::step_kernels), resolved
/// once from its name, so sweeps do no string look-ups.
struct KernelId {
  int dims = 2;
  int index = 0;
};

template <typename T>
struct SmoothingPass {
  /// The sweep: args.in to args.out over args.box. With several steps args.in's box is scratch
  /// afterwards; with statistics args.in is left as it was.
  SweepArgs<T> sweep;
  int steps = 1;
  /// A single-sweep variant (Backend::kernels), or with `blocked` a blocked one
  /// (Backend::step_kernels), which several steps and a correction need.
  KernelId kernel;
  bool blocked = false;
  /// Added onto sweep.in before the first sweep (correction.to == sweep.in, the same box,
  /// nested halving): multigrid's coarse correction before post-smoothing.
  const TransferArgs<T>* correction = nullptr;
  /// Statistics of the first sweep: a single sweep (steps 1), or the first of a pair (steps 2,
  /// blocked, where Backend::pairs_with_stats says the variant counts them).
  PassStats stats = PassStats::None;
};

}  // namespace fdsolve
