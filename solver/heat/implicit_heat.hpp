// Heat by implicit time steps (time.scheme implicit or crank-nicolson), each solved by multigrid
// cycles: the same loop services as explicit heat (snapshots, checkpoints, --resume, signals,
// divergence, diagnostics), with one history row per step holding the step's final residual
// and the cycles it took.
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "loop/solve_result.hpp"
#include "problem/problem.hpp"

namespace fdsolve::heat {

/// Steps the heat problem `p` (time.scheme implicit or crank-nicolson) to time.end on
/// `backend`, by the constant stencil's cycles or the flux form's.
template <typename T>
SolveResult solve_implicit_heat(const problem::Problem& p, Backend<T>& backend,
                                output::RunOutput& out, const SolveOptions& options);

/// "Crank-Nicolson steps, each by multigrid V(2,2) cycles, full multigrid start".
std::string describe_implicit_heat(const Case& c);

/// The same with a diffusivity field or held nodes (the flux form): "Crank-Nicolson steps, each
/// by conjugate gradients preconditioned by multigrid V(2,2) cycles (Galerkin ...)".
std::string describe_flux_implicit_heat(const Case& c);

/// Bytes of backend memory an implicit heat run on the constant stencil needs: u, its second
/// buffer and the coarse levels (multigrid_memory's), the step's right-hand side, a source
/// field and the earlier steps it keeps.
std::size_t implicit_heat_memory(const Case& c);
/// The same for rank `rank` of the rank grid `ranks`.
std::size_t implicit_heat_memory(const Case& c, std::array<int, 3> ranks, int rank);
/// The same on the flux form (a diffusivity or capacity field, held nodes, Robin faces), one
/// rank: the flux cycles' memory (flux_multigrid_memory) and the step's fields.
std::size_t flux_implicit_heat_memory(const Case& c);

/// The lines `fdsolve check` prints for an implicit heat case: the explicit stability limit
/// beside dt and their ratio, the steps, the Crank-Nicolson ringing warning, and the hierarchy
/// with the shifted operator's relaxation weight and bottom solve.
std::vector<std::string> describe_implicit_plan(const Case& c);

}  // namespace fdsolve::heat
