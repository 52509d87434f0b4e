// The Case resolved once per run into what the solvers take: the case as it runs (a field equal at
// every node written as its number), which operator runs (the constant stencil, or the flux form
// over its op::Medium), the method, this rank's part of the grid and the nodes a sweep updates,
// the multigrid levels, the source and heat's time plan. solve_case resolves it and dispatches on
// it once; the entries (solve_jacobi, multigrid::solve_steady, heat::solve_implicit_heat) and what
// they set up read it instead of deriving the same from the Case again.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "loop/solve_result.hpp"
#include "loop/time_plan.hpp"
#include "multigrid/hierarchy.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/level_split.hpp"

namespace fdsolve::op {
struct Medium;
}

namespace fdsolve::problem {

/// The operator a run applies.
enum class OperatorForm {
  Stencil,  // constant weights: 5/7/19/27 points or custom, a coefficient that is one number
  Flux,     // the flux form: a coefficient or capacity that varies, held nodes, Robin faces
};

/// The method a run resolves to.
enum class Method {
  Jacobi,              // Jacobi sweeps of a steady equation
  ExplicitHeat,        // forward Euler heat steps
  Multigrid,           // steady multigrid cycles as a stationary iteration
  ConjugateGradients,  // steady conjugate gradients preconditioned by a cycle (flux form)
  ImplicitHeat,        // backward Euler or Crank-Nicolson steps, each by multigrid
};

struct Problem {
  /// The case as it runs: the case read, with a coefficient or capacity equal at every node
  /// written as its number.
  Case c;
  OperatorForm form = OperatorForm::Stencil;
  /// The evaluated coefficient, capacity and held nodes: the flux form's operator (null on the
  /// constant stencil).
  std::shared_ptr<const op::Medium> medium;
  Method method = Method::Jacobi;

  /// The fine grid as multigrid's level 0 (its updated box over every rank, faces, spacing).
  multigrid::LevelGeometry fine;
  /// The methods that run cycles (steady or implicit): the levels of the constant stencil's
  /// coarsening, which the flux form's hierarchy builds on too; empty for Jacobi and explicit
  /// heat.
  std::vector<multigrid::LevelGeometry> levels;
  /// How the ranks share the levels: each level split (the constant stencil's cycles), or the
  /// fine grid's split alone with the coarser levels on rank 0 (the flux form's); level[0] is
  /// `decomposition`. One level for Jacobi and explicit heat.
  parallel::LevelSplit split;
  /// This rank's part of the grid.
  parallel::Decomposition decomposition;
  /// One field of this rank's part, for values of the run's precision.
  Layout layout;
  /// The nodes of this rank's part that a sweep updates (update_box).
  Box box;
  /// The nodes a sweep updates over every rank.
  index_t updated_cells = 0;

  /// Whether the source varies from node to node (has_source_field): it is then a field.
  bool source_field = false;
  /// The source where it is one number (Poisson's f, heat's q); 0 for Laplace or a field.
  double source_constant = 0;
  /// Heat's steps: dt, their number, the output steps (heat only).
  std::optional<TimePlan> time;

  bool flux() const { return form == OperatorForm::Flux; }
  /// Whether the method runs multigrid cycles to a steady solution (Multigrid, CG).
  bool steady_cycles() const {
    return method == Method::Multigrid || method == Method::ConjugateGradients;
  }
};

/// Whether `c` steps heat implicitly (backward Euler or Crank-Nicolson, each step by multigrid).
bool implicit_heat(const Case& c);

/// Resolves `c` (after resolve_method_defaults and the run's checks) for a run in values of
/// `value_size` bytes over the ranks of `options` (its decomposition; one rank without one). A
/// medium that needs the flux operator is evaluated here, or found where the run evaluated it
/// already (op::resolved_medium).
Problem resolve(const Case& c, std::size_t value_size, const SolveOptions& options);

/// `c` as it is on the constant stencil by `method` (Jacobi or explicit heat for a heat case,
/// or Multigrid), whatever its fields: what solve_jacobi(const Case&, ...) runs, and the
/// coarse grid's solve of solve.tolerance: discretization (richardson.hpp).
Problem on_stencil(const Case& c, Method method, std::size_t value_size,
                   const SolveOptions& options);

}  // namespace fdsolve::problem
