// Jacobi sweeps and explicit heat steps: fill the halo, sweep, swap, as iterations of the solve
// loop (solve_loop.hpp), which checks every check_every iterations, writes snapshots and
// checkpoints and stops at convergence (Laplace, Poisson, custom), at time.end (heat), at
// divergence, at max_iterations, at the wall-time limit or when interrupted.
#pragma once

#include "backend.hpp"
#include "case.hpp"
#include "solve_result.hpp"
#include "tuning/kernel_choice.hpp"

namespace fdsolve {
namespace op {
struct Medium;
}

/// Solves `c` on `backend`, writing snapshots, checkpoints and history through `out`. With
/// `medium` needing the flux operator (op::Medium::needs_flux), the sweeps are its Jacobi
/// sweeps or explicit heat steps (single sweeps, no temporal blocking).
template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options,
                         const op::Medium* medium = nullptr);

}  // namespace fdsolve
