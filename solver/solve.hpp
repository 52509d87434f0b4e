// One entry to solving a case: picks the method (solve.method, or the equation's), so the
// commands need not know which loop runs.
#pragma once

#include <string>
#include <vector>

#include "jacobi.hpp"

namespace fdsolve {

/// Solves `c` with the method it resolves to: multigrid cycles, the Jacobi/explicit heat loop
/// or implicit heat steps by multigrid.
template <typename T>
SolveResult solve_case(const Case& c, Backend<T>& backend, output::RunOutput& out,
                       const SolveOptions& options);

/// The case as it runs on `several` ranks: multigrid is not distributed yet, so there
/// solve.method auto means Jacobi (an explicit multigrid is refused by the run).
Case on_ranks(Case c, bool several);

/// Bytes of backend memory the case needs with the method it resolves to.
std::size_t case_memory(const Case& c);

/// The method as summary.json and the log name it ("jacobi", "explicit heat steps",
/// "multigrid V(2,2) cycles, full multigrid start", "Crank-Nicolson steps, each by multigrid
/// V(2,2) cycles, full multigrid start").
std::string method_name(const Case& c);

/// The lines `fdsolve check` prints about the method: which one and why, and for multigrid
/// the hierarchy, the expected work and any coarsening warning; for implicit heat also the
/// explicit stability limit beside dt and Crank-Nicolson's ringing warning.
std::vector<std::string> describe_method(const Case& c);

}  // namespace fdsolve
