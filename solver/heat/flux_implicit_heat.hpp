// Implicit heat (backward Euler, Crank-Nicolson) with a diffusivity field or held nodes: the
// variable-coefficient operator's steps (flux_step.hpp) in the implicit loop.
#pragma once

#include <string>

#include "backend.hpp"
#include "case.hpp"
#include "loop/solve_result.hpp"

namespace fdsolve::op {
struct Medium;
}

namespace fdsolve::heat {

/// Steps the heat case `c` with the medium `m` (op::resolve_medium; one that needs the flux
/// operator) to time.end.
template <typename T>
SolveResult solve_flux_implicit_heat(const Case& c, const op::Medium& m, Backend<T>& backend,
                                     output::RunOutput& out, const SolveOptions& options);

/// "Crank-Nicolson steps, each by conjugate gradients preconditioned by V(2,2) cycles ...".
std::string describe_flux_implicit_heat(const Case& c);

}  // namespace fdsolve::heat
