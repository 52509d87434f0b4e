// Check statistics over all ranks, deterministically: every rank's partial is gathered and
// merged in rank order (never MPI_Allreduce on doubles, whose order may vary), so the same
// case and rank count give bit-identical norms and iteration counts. One rank returns its own.
#pragma once

#include <string>

#include "comm.hpp"
#include "decomposition.hpp"
#include "diagnostics.hpp"
#include "run_output.hpp"
#include "stencil.hpp"
#include "subdomain.hpp"

namespace fdsolve::parallel {

/// The sweep statistics of the whole grid, on every rank.
SweepStats reduce_stats(const Comm& comm, const SweepStats& mine);
/// The same, adding the seconds it took (the loop-time split's reduction share) to `seconds`.
SweepStats timed_reduce_stats(const Comm& comm, const SweepStats& mine, double& seconds);
/// The same with the ranks' stop requests in the one collective: `stop` (this rank's: 2 a
/// signal, 1 the time limit, 0 none) becomes the largest over the ranks, so that a loop agrees
/// on its norms and on stopping with one message a cycle.
SweepStats timed_reduce_stats(const Comm& comm, const SweepStats& mine, int& stop,
                              double& seconds);

/// The diagnostics of the whole grid, on every rank, in global node indices: `mine` is this
/// rank's over the nodes `sub` owns (local indices). Counts, histograms and the chosen nodes
/// are exact; sums are added in rank order.
Diagnostics reduce_diagnostics(const Comm& comm, const Diagnostics& mine, const Subdomain& sub);

/// The run's split and this rank's loop times with rank 0's and each figure's largest over the
/// ranks (a maximum is exact in any order), on every rank.
output::ParallelSummary parallel_summary(const Comm& comm, const Decomposition& d, bool overlap,
                                         const std::string& exchange, const output::LoopTimes& mine);
/// The same for multigrid, with this rank's seconds per level (`mine_levels`, the same count
/// on every rank) and the levels' node counts.
output::ParallelSummary parallel_summary(const Comm& comm, const Decomposition& d, bool overlap,
                                         const std::string& exchange, const output::LoopTimes& mine,
                                         const std::vector<output::LevelSeconds>& mine_levels,
                                         std::vector<std::array<std::int64_t, 3>> level_points);

}  // namespace fdsolve::parallel
