// Jacobi sweeps and explicit heat steps: fill the halo, sweep, swap, as iterations of the solve
// loop (solve_loop.hpp), which checks every check_every iterations, writes snapshots and
// checkpoints and stops at convergence (Laplace, Poisson, custom), at time.end (heat), at
// divergence, at max_iterations, at the wall-time limit or when interrupted.
#pragma once

#include "backend.hpp"
#include "case.hpp"
#include "problem/problem.hpp"
#include "solve_result.hpp"
#include "tuning/kernel_choice.hpp"

namespace fdsolve {

/// Solves the problem `p` (method Jacobi or explicit heat) on `backend`, writing snapshots,
/// checkpoints and history through `out`. On the flux form the sweeps are its Jacobi sweeps or
/// explicit heat steps (single sweeps, no temporal blocking).
template <typename T>
SolveResult solve_jacobi(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options);
/// The same for `c` as it is on the constant stencil (problem::on_stencil), whatever its fields.
template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options);

}  // namespace fdsolve
