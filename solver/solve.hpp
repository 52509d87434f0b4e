// One entry to solving a case: picks the method (solve.method, or the equation's), so the
// commands need not know which loop runs.
#pragma once

#include <string>
#include <vector>

#include "loop/jacobi.hpp"
#include "problem/problem.hpp"

namespace fdsolve {

/// Solves `c` with the method it resolves to (problem::resolve, then solve_problem): multigrid
/// cycles, the Jacobi/explicit heat loop or implicit heat steps by multigrid.
template <typename T>
SolveResult solve_case(const Case& c, Backend<T>& backend, output::RunOutput& out,
                       const SolveOptions& options);

/// Solves the resolved problem `p` (problem::resolve) by its method: the one dispatch on the
/// operator and the method.
template <typename T>
SolveResult solve_problem(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                          const SolveOptions& options);

/// Whether the case runs multigrid: the steady method it resolves to, or implicit heat steps.
bool runs_multigrid(const Case& c);

/// solve.max_iterations when the case does not set it and the case runs multigrid (cycles, or
/// cycles per implicit heat step); Jacobi keeps SolveSpec's 1000000.
inline constexpr std::int64_t kMultigridDefaultCycles = 100;

/// Fills in the defaults that depend on the method the case resolves to
/// (kMultigridDefaultCycles), so that the resolved case (check, summary.json, checkpoints)
/// holds them. Call once after reading a case.
void resolve_method_defaults(Case& c);

/// Rank `rank`'s part of the split of `c` over the rank grid `ranks` (choose_ranks): for the
/// methods that run multigrid, the split aligned for its levels (parallel/level_split.hpp);
/// for Jacobi and explicit heat the plain one (as equal as the sizes allow).
parallel::Decomposition case_decomposition(const Case& c, std::array<int, 3> ranks, int rank);

/// Bytes of backend memory the case needs with the method it resolves to.
std::size_t case_memory(const Case& c);
/// The same for rank `rank` of the rank grid `ranks`.
std::size_t case_memory(const Case& c, std::array<int, 3> ranks, int rank);

/// The lines `fdsolve check` prints about the split over the ranks `ranks`: the rank grid and
/// boxes, and for multigrid each level's boxes and where the levels are gathered onto rank 0.
std::vector<std::string> describe_split(const Case& c, std::array<int, 3> ranks);

/// The method as summary.json and the log name it ("jacobi", "explicit heat steps",
/// "multigrid V(2,2) cycles, full multigrid start", "Crank-Nicolson steps, each by multigrid
/// V(2,2) cycles, full multigrid start").
std::string method_name(const Case& c);

/// What the run's norms measure (summary.json's `criterion`): "residual", f - A u, for
/// multigrid and CG solves, implicit heat steps and Jacobi with solve.criterion residual on the
/// constant stencil; else "update", u' - u of the last sweep (Jacobi, explicit heat, and
/// Jacobi's flux form, where no one scale turns its updates into residuals).
std::string norm_criterion(const Case& c);

/// The lines `fdsolve check` prints about the method: which one and why, and for multigrid
/// the hierarchy, the expected work and any coarsening warning; for implicit heat also the
/// explicit stability limit beside dt and Crank-Nicolson's ringing warning.
std::vector<std::string> describe_method(const Case& c);

}  // namespace fdsolve
