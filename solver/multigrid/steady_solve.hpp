// What a steady solve by cycles asks of its operator: the part of the set-up that differs between
// the constant stencil (multigrid_solve.cpp: StencilHierarchy or MixedCycles, the levels split
// over the ranks) and the flux form (flux_solve.cpp: FluxCyclesOnRanks and FluxIteration, the
// cycles on rank 0). The set-up over it (the start state, the boundaries, the halo exchange, the
// right-hand side's load, the fine state the cycle iteration works on) is solve_steady's,
// written once; a new operator form implements this interface, as heat/step_operator.hpp does
// for the implicit steps.
#pragma once

#include <cstdint>
#include <string>

#include "backend.hpp"
#include "case.hpp"
#include "cycle_iteration.hpp"
#include "loop/solve_result.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem/boundary_conditions.hpp"
#include "run_output.hpp"

namespace fdsolve::multigrid {

/// What solve_steady made for the operator side: u and its second buffer where a resumed run
/// takes up, the fine grid's ghosts and this rank's part, and the right-hand side already
/// scaled by SteadyOperator::rhs_scale (a field, or `f_constant` everywhere where null).
template <typename T>
struct SteadyFields {
  Buffer<T>& cur;
  Buffer<T>& next;
  std::int64_t done = 0;
  double earlier_seconds = 0;
  Boundaries<T>& boundaries;
  HaloExchange<T>& halo;
  const parallel::Decomposition& decomposition;
  Layout layout;
  Box box;
  const T* f = nullptr;
  double f_constant = 0;  // unscaled: the Poisson source's number, 0 for Laplace or a field
  /// Fills the ghosts of x: the boundary rules at t = 0 and the faces from the other ranks.
  void fill_ghosts(Buffer<T>& x) const { boundaries.before_sweep(x, x, 0.0, 0.0, halo); }
  /// The fine state of solve_by_cycles over `updated_cells` (every rank's).
  FineState<T> fine(index_t updated_cells, bool fmg_start) const {
    return {cur, next, done, earlier_seconds, layout, decomposition, box, updated_cells,
            fmg_start};
  }
};

template <typename T>
class SteadyOperator {
 public:
  virtual ~SteadyOperator() = default;
  /// This rank's part of the fine grid: level 0 of the levels' split (the stencil), or the run's
  /// split of the fine grid alone (the flux form, whose coarser levels live on rank 0).
  virtual const parallel::Decomposition& part() const = 0;
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

/// Solves the Laplace/Poisson case `c` by the cycles of `op` on `backend`, writing through `out`.
template <typename T>
SolveResult solve_steady(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options, SteadyOperator<T>& op);

}  // namespace fdsolve::multigrid
