// The steady solve by multigrid cycles or conjugate gradients, one entry for either operator.
// What it asks of its operator is SteadyOperator: the part of the set-up that differs between the
// constant stencil (stencil_steady, multigrid_solve.cpp: StencilHierarchy or MixedCycles, the
// levels split over the ranks) and the flux form (flux_steady, flux_solve.cpp: FluxCyclesOnRanks
// and FluxIteration, the cycles on rank 0). The set-up over it (the start state, the boundaries,
// the halo exchange, the right-hand side's load, the fine state the cycle iteration works on) is
// solve_steady's, written once; a new operator form implements this interface, as
// heat/step_operator.hpp does for the implicit steps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backend.hpp"
#include "case.hpp"
#include "cycle_iteration.hpp"
#include "loop/solve_result.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/problem.hpp"
#include "run_output.hpp"

namespace fdsolve::multigrid {

/// What solve_steady made for the operator side: the fine state the cycle iteration works on (u
/// and its second buffer where a resumed run takes up, this rank's part; no full multigrid start
/// yet), what fills the fine grid's ghosts, and the right-hand side already scaled by
/// SteadyOperator::rhs_scale (a field, or `f_constant` everywhere where null).
template <typename T>
struct SteadyFields {
  FineState<T> state;
  Boundaries<T>& boundaries;
  HaloExchange<T>& halo;
  const T* f = nullptr;
  double f_constant = 0;  // unscaled: the Poisson source's number, 0 for Laplace or a field
  /// Fills the ghosts of x: the boundary rules at t = 0 and the faces from the other ranks.
  void fill_ghosts(Buffer<T>& x) const { boundaries.before_sweep(x, x, 0.0, 0.0, halo); }
};

template <typename T>
class SteadyOperator {
 public:
  virtual ~SteadyOperator() = default;
  /// The sweep kernel's name, for summary.json and checkpoints.
  virtual std::string kernel() const = 0;
  /// What the log calls one iteration ("cycle", "iteration").
  virtual const char* iteration_name() const = 0;
  /// The factor of the right-hand side g = rhs_scale f that the cycles read.
  virtual double rhs_scale() const = 0;
  /// Builds the cycles over `f` (the mark "hierarchy ready" once they stand), logs them and
  /// runs them in the solve loop from `r`.
  virtual SolveResult solve(const SteadyFields<T>& f, SolveResult r) = 0;
};

/// The constant stencil's side (multigrid_solve.cpp) and the flux form's (flux_solve.cpp) of the
/// steady problem `p`; they keep references to their arguments.
template <typename T>
std::unique_ptr<SteadyOperator<T>> stencil_steady(const problem::Problem& p, Backend<T>& backend,
                                                  output::RunOutput& out,
                                                  const SolveOptions& options);
template <typename T>
std::unique_ptr<SteadyOperator<T>> flux_steady(const problem::Problem& p, Backend<T>& backend,
                                               output::RunOutput& out, const SolveOptions& options);

/// Solves the Laplace/Poisson problem `p` (method Multigrid or ConjugateGradients) by the cycles
/// of its operator on `backend`, writing through `out`.
template <typename T>
SolveResult solve_steady(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options);

}  // namespace fdsolve::multigrid
