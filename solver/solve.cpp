// Method dispatch (see solve.hpp).
#include "solve.hpp"

#include <fmt/format.h>

#include "case_reader.hpp"
#include "heat/implicit_heat.hpp"
#include "multigrid/cycle_work.hpp"
#include "multigrid/flux_solve.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/multigrid_solve.hpp"
#include "multigrid/richardson.hpp"
#include "multigrid/steady_solve.hpp"
#include "operator/medium.hpp"
#include "parallel/level_split.hpp"
#include "problem/memory_estimate.hpp"

namespace fdsolve {
namespace {

using problem::implicit_heat;

/// A coefficient that varies, held nodes or a Robin face: the flux operator (the medium
/// evaluated to know).
bool uses_flux_operator(const Case& c) {
  return op::may_need_flux(c) && op::resolved_medium(c)->needs_flux();
}

}  // namespace

template <typename T>
SolveResult solve_problem(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                          const SolveOptions& options) {
  switch (p.method) {
    case problem::Method::ImplicitHeat:
      return heat::solve_implicit_heat<T>(p, backend, out, options);
    case problem::Method::Multigrid:
    case problem::Method::ConjugateGradients:
      if (p.flux() && p.c.solve.tolerance_discretization)
        throw InputError(p.c.where("solve.tolerance") +
                         "solve.tolerance: discretization applies to a constant coefficient "
                         "without held nodes or robin faces (its estimate needs full multigrid, "
                         "which the flux operator's cycles do not start with); give a number");
      return multigrid::solve_steady<T>(p, backend, out, options);
    case problem::Method::Jacobi:
    case problem::Method::ExplicitHeat:
      break;
  }
  return solve_jacobi<T>(p, backend, out, options);
}

template <typename T>
SolveResult solve_case(const Case& c, Backend<T>& backend, output::RunOutput& out,
                       const SolveOptions& options) {
  return solve_problem<T>(problem::resolve(c, sizeof(T), options), backend, out, options);
}

bool runs_multigrid(const Case& c) {
  return implicit_heat(c) || multigrid::choose_method(c).multigrid;
}

namespace {

/// Whether multigrid's levels are split over the ranks: the constant stencil's hierarchy. The
/// flux form's cycles run on rank 0 (flux_on_ranks.hpp), and any split of the fine grid serves
/// them.
bool splits_levels(const Case& c) { return runs_multigrid(c) && !uses_flux_operator(c); }

}  // namespace

void resolve_method_defaults(Case& c) {
  // A key the file or a --set gave has a location; a default has none.
  if (!c.locations.contains("solve.max_iterations") && runs_multigrid(c))
    c.solve.max_iterations = kMultigridDefaultCycles;
  // The flux form's cycles (a coefficient field, held nodes, Robin faces) smooth by their own
  // weighted-Jacobi sweeps: Chebyshev steps are the constant stencil's.
  if (c.solve.multigrid.smoother == Smoother::Chebyshev && runs_multigrid(c) &&
      uses_flux_operator(c))
    throw InputError(c.where("solve.multigrid.smoother") +
                     "solve.multigrid.smoother: chebyshev applies to the constant stencil's "
                     "cycles; this case's coefficient field, held nodes or Robin faces run the "
                     "flux form's cycles, which smooth by weighted Jacobi (give auto or jacobi)");
  if (c.solve.tolerance_discretization) {
    const multigrid::MethodChoice choice = multigrid::choose_method(c);
    if (!choice.multigrid)
      throw InputError(c.where("solve.tolerance") +
                       "solve.tolerance: discretization needs multigrid (its full multigrid "
                       "start gives the estimate), but this case runs Jacobi (" +
                       choice.reason + "); give a number");
    if (const std::string why = multigrid::richardson_obstacle(c); !why.empty())
      throw InputError(c.where("solve.tolerance") +
                       "solve.tolerance: discretization estimates the discretization error "
                       "against the grid through every other node, but " + why +
                       "; give a number");
  }
}

parallel::Decomposition case_decomposition(const Case& c, std::array<int, 3> ranks, int rank) {
  if (!splits_levels(c)) return parallel::decompose(c, ranks, rank);
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  return parallel::split_levels(c, multigrid::level_points(levels), ranks, rank).level[0];
}

std::size_t case_memory(const Case& c) { return case_memory(c, {1, 1, 1}, 0); }

std::size_t case_memory(const Case& c, std::array<int, 3> ranks, int rank) {
  const Subdomain sub = case_decomposition(c, ranks, rank).sub;
  // The final snapshot's slabs, and for heat the checkpoint of the state before the last step
  // (end_checkpoint.hpp) in a staging copy: backend memory on the CPU, host memory on a GPU
  // (counted here too, an upper bound).
  std::size_t output = output_slab_bytes(c, sub);
  if (c.problem.equation == Equation::Heat) {
    const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
    output += static_cast<std::size_t>(field_layout(c, value, sub).size) * value;
  }
  if (runs_multigrid(c) && !splits_levels(c) && ranks[0] * ranks[1] * ranks[2] > 1) {
    // The flux form over ranks: this rank's part of the fine fields, and rank 0 the whole
    // grid's hierarchy besides.
    const std::size_t part = required_memory(c, parallel::decompose(c, ranks, rank).sub) + output;
    return rank == 0 ? part + case_memory(c) : part;
  }
  if (implicit_heat(c))
    return (uses_flux_operator(c) ? heat::flux_implicit_heat_memory(c)
                                  : heat::implicit_heat_memory(c, ranks, rank)) +
           output;
  if (multigrid::choose_method(c).multigrid)
    return (uses_flux_operator(c) ? multigrid::flux_multigrid_memory(c)
                                  : multigrid::multigrid_memory(c, ranks, rank)) +
           output;
  std::size_t bytes = required_memory(c, sub) + output;
  if (uses_flux_operator(c)) {  // the fine level's three face arrays
    const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
    bytes += 3 * static_cast<std::size_t>(field_layout(c, value, sub).size) * value;
  }
  return bytes;
}

std::vector<std::string> describe_split(const Case& c, std::array<int, 3> ranks) {
  std::vector<std::string> lines{"parallel: " +
                                 parallel::describe(case_decomposition(c, ranks, 0))};
  if (!splits_levels(c)) {
    if (runs_multigrid(c)) lines.push_back("multigrid: the cycles run on rank 0 over the whole grid");
    return lines;
  }
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  const auto points = multigrid::level_points(levels);
  for (std::string& l : parallel::describe_levels(parallel::split_levels(c, points, ranks, 0),
                                                  points, parallel::gather_threshold(c.parallel),
                                                  c.parallel.coarse_levels))
    lines.push_back(std::move(l));
  return lines;
}

std::string method_name(const Case& c) {
  const bool flux = uses_flux_operator(c);
  if (implicit_heat(c))
    return flux ? heat::describe_flux_implicit_heat(c) : heat::describe_implicit_heat(c);
  if (c.problem.equation == Equation::Heat)
    return flux ? "explicit heat steps (variable-coefficient flux form)" : "explicit heat steps";
  if (multigrid::choose_method(c).multigrid) {
    if (!flux) return multigrid::describe_cycles(c.solve.multigrid);
    MultigridSpec spec = c.solve.multigrid;
    spec.fmg = false;
    return (multigrid::flux_uses_cg(c) ? "conjugate gradients preconditioned by " : "") +
           multigrid::describe_cycles(spec) + " (Galerkin coarse operators where the levels nest)";
  }
  return flux ? "jacobi (variable-coefficient flux form)" : "jacobi";
}

std::string norm_criterion(const Case& c) {
  if (runs_multigrid(c)) return "residual";
  if (c.problem.equation == Equation::Heat) return "update";
  return c.solve.criterion == Criterion::Residual && !uses_flux_operator(c) ? "residual" : "update";
}

std::vector<std::string> describe_method(const Case& c) {
  if (implicit_heat(c)) return heat::describe_implicit_plan(c);
  const multigrid::MethodChoice choice = multigrid::choose_method(c);
  std::vector<std::string> lines{fmt::format("method: {} ({})", method_name(c), choice.reason)};
  if (!choice.multigrid) return lines;
  for (std::string& l : multigrid::describe_hierarchy(c)) lines.push_back(std::move(l));
  if (c.solve.multigrid.float_cycles) {
    const std::string why = multigrid::mixed_precision_obstacle(c);
    lines.push_back(!why.empty() ? "  solve.multigrid.precision: float does not apply: " + why
                    : uses_flux_operator(c)
                        ? "  cycles in float preconditioning the double solve"
                        : "  cycles in float inside a double defect correction (full multigrid's "
                          "start in double)");
  }
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  if (const std::string w = multigrid::cycle_work_warning(c, levels); !w.empty())
    lines.push_back("warning: " + w);
  return lines;
}

template SolveResult solve_problem<float>(const problem::Problem&, Backend<float>&,
                                          output::RunOutput&, const SolveOptions&);
template SolveResult solve_problem<double>(const problem::Problem&, Backend<double>&,
                                           output::RunOutput&, const SolveOptions&);
template SolveResult solve_case<float>(const Case&, Backend<float>&, output::RunOutput&,
                                       const SolveOptions&);
template SolveResult solve_case<double>(const Case&, Backend<double>&, output::RunOutput&,
                                        const SolveOptions&);

}  // namespace fdsolve
