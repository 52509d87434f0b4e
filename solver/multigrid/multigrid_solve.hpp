// The constant stencil's multigrid beside its steady solve (steady_solve.hpp: stencil_steady):
// the levels' split over the ranks, the memory a solve needs, and what `check` says about the
// cycles and the hierarchy.
#pragma once

#include <string>
#include <vector>

#include "hierarchy.hpp"
#include "backend.hpp"
#include "case.hpp"
#include "loop/solve_result.hpp"
#include "parallel/level_split.hpp"

namespace fdsolve::multigrid {

/// The split of `levels` over the ranks of `options` (its decomposition's rank grid; one rank
/// without one): every level whole on one rank.
parallel::LevelSplit split_over_ranks(const Case& c, const std::vector<LevelGeometry>& levels,
                                     const SolveOptions& options);
/// The fine grid's split of `options` (one rank without one) with every coarser level on rank
/// 0: the flux form's cycles over ranks (flux_on_ranks.hpp).
parallel::LevelSplit fine_split_only(const Case& c, const std::vector<LevelGeometry>& levels,
                                    const SolveOptions& options);

/// Why solve.multigrid.precision: float cannot run for `c` on the constant-coefficient cycles
/// ("" where it runs): it is not asked for, or the run is float.
std::string mixed_precision_obstacle(const Case& c);

/// "V(2,2) cycles, full multigrid start": the method as summary.json and the log name it.
std::string describe_cycles(const MultigridSpec& spec);

/// Bytes of backend memory a multigrid solve of `c` needs on the constant stencil: the fine
/// fields (u, its second buffer, the right-hand side, the state before the cycle when
/// diagnostics or the update field need it, the copy of u that an interrupted cycle restores,
/// per-node Neumann gradients) and three fields per coarse level.
std::size_t multigrid_memory(const Case& c);
/// The same for rank `rank` of the rank grid `ranks` (its boxes of the split levels, and on
/// rank 0 the gathered levels whole).
/// Without `steady`, only u and its second buffer at the fine level (the caller adds its own).
std::size_t multigrid_memory(const Case& c, std::array<int, 3> ranks, int rank,
                             bool steady = true);

/// Bytes of backend memory the flux form's multigrid needs for `c` on one rank (a coefficient
/// field, held nodes or Robin faces): the fine fields, the iteration's vectors and the
/// hierarchy with its Galerkin couplings; with `steady` the steady loop's fields besides (the
/// state before a cycle, the interrupted cycle's copy of u).
std::size_t flux_multigrid_memory(const Case& c, bool steady = true);

/// The lines `fdsolve check` prints for a multigrid case: the levels (points, memory), the
/// relaxation weight and smoothing factor, the bottom solve, and the expected work per cycle,
/// for the operator alpha I - beta L (an implicit heat step's shift; -lap by default).
std::vector<std::string> describe_hierarchy(const Case& c, double alpha = 0.0, double beta = 1.0);

}  // namespace fdsolve::multigrid
