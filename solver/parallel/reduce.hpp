// Check statistics over all ranks, deterministically: every rank's partial is gathered and
// merged in rank order (never MPI_Allreduce on doubles, whose order may vary), so the same
// case and rank count give bit-identical norms and iteration counts. One rank returns its own.
#pragma once

#include "comm.hpp"
#include "diagnostics.hpp"
#include "stencil.hpp"
#include "subdomain.hpp"

namespace fdsolve::parallel {

/// The sweep statistics of the whole grid, on every rank.
SweepStats reduce_stats(const Comm& comm, const SweepStats& mine);

/// The diagnostics of the whole grid, on every rank, in global node indices: `mine` is this
/// rank's over the nodes `sub` owns (local indices). Counts, histograms and the chosen nodes
/// are exact; sums are added in rank order.
Diagnostics reduce_diagnostics(const Comm& comm, const Diagnostics& mine, const Subdomain& sub);

}  // namespace fdsolve::parallel
