// See problem.hpp.
#include "problem.hpp"

#include "loop/stability.hpp"
#include "multigrid/flux_solve.hpp"
#include "multigrid/multigrid_solve.hpp"
#include "operator/medium.hpp"
#include "problem_setup.hpp"

namespace fdsolve::problem {

bool implicit_heat(const Case& c) {
  return c.problem.equation == Equation::Heat && c.time.scheme != TimeScheme::Explicit;
}

namespace {

/// What follows from the case as it runs, its operator and its method: the grid's split and
/// this rank's part of it, the levels, the source and heat's steps.
void place(Problem& p, std::size_t value_size, const SolveOptions& options) {
  const Case& c = p.c;
  p.fine = multigrid::fine_level(c);
  p.updated_cells = p.fine.box.cells();
  if (p.steady_cycles() || p.method == Method::ImplicitHeat) {
    p.levels = multigrid::build_hierarchy(p.fine);
    // The constant stencil splits every level it can over the ranks; the flux form's cycles run
    // on rank 0, and any split of the fine grid serves them.
    p.split = p.flux() ? multigrid::fine_split_only(c, p.levels, options)
                       : multigrid::split_over_ranks(c, p.levels, options);
  } else {
    p.split.level = {options.decomposition ? *options.decomposition
                                           : parallel::decompose(c, {1, 1, 1}, 0)};
  }
  p.decomposition = p.split.level[0];
  p.layout = field_layout(c, value_size, p.decomposition.sub);
  p.box = update_box(c, p.decomposition.sub);
  p.source_field = has_source_field(c);
  const bool sourced =
      c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat;
  p.source_constant = sourced && c.problem.source.is_constant() ? c.problem.source.constant : 0.0;
  // A dt above the explicit limit is bad input for explicit steps (unless the options allow it);
  // the implicit schemes take any dt.
  if (c.problem.equation == Equation::Heat)
    p.time = heat_time_plan(c, p.method == Method::ExplicitHeat && options.allow_unstable_dt);
}

}  // namespace

Problem resolve(const Case& c, std::size_t value_size, const SolveOptions& options) {
  Problem p;
  if (!op::may_need_flux(c)) {
    p.c = c;
  } else {
    // Evaluated once: a field equal at every node runs exactly as that number does.
    std::shared_ptr<const op::Medium> m = op::resolved_medium(c);
    if (m->needs_flux()) {
      p.form = OperatorForm::Flux;
      // A capacity equal at every node runs as its number (the steps of dt / c).
      p.c = !c.problem.capacity.is_constant() && !m->capacity_varies()
                ? op::with_constant_capacity(c, *m)
                : c;
      p.medium = std::move(m);
    } else {
      p.c = op::with_constant_coefficient(c, *m);
    }
  }
  const Case& r = p.c;
  if (implicit_heat(r))
    p.method = Method::ImplicitHeat;
  else if (r.problem.equation == Equation::Heat)
    p.method = Method::ExplicitHeat;
  else if (multigrid::choose_method(r).multigrid)
    p.method =
        p.flux() && multigrid::flux_uses_cg(r) ? Method::ConjugateGradients : Method::Multigrid;
  else
    p.method = Method::Jacobi;
  place(p, value_size, options);
  return p;
}

Problem on_stencil(const Case& c, Method method, std::size_t value_size,
                   const SolveOptions& options) {
  Problem p;
  p.c = c;
  p.method = method;
  place(p, value_size, options);
  return p;
}

}  // namespace fdsolve::problem
