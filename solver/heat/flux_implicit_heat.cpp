// The implicit heat schemes with a diffusivity field or held nodes: the stepper over the flux
// form (flux_step.hpp) in the shared implicit loop.
#include "flux_implicit_heat.hpp"

#include <fmt/format.h>

#include "case_reader.hpp"
#include "flux_step.hpp"
#include "implicit_heat.hpp"
#include "implicit_iteration.hpp"
#include "multigrid/flux_solve.hpp"

namespace fdsolve::heat {

std::string describe_flux_implicit_heat(const Case& c) {
  MultigridSpec spec = c.solve.multigrid;
  spec.fmg = false;  // each step starts from the old u
  return fmt::format("{} steps, each by {}{} (Galerkin coarse operators where the levels nest)",
                     c.time.scheme == TimeScheme::CrankNicolson ? "Crank-Nicolson"
                                                                : "backward Euler",
                     multigrid::flux_uses_cg(c) ? "conjugate gradients preconditioned by " : "",
                     multigrid::describe_cycles(spec));
}

template <typename T>
SolveResult solve_flux_implicit_heat(const Case& c, const op::Medium& m, Backend<T>& backend,
                                     output::RunOutput& out, const SolveOptions& options) {
  return solve_implicit_steps<T>(
      c, backend, out, options, "flux", describe_flux_implicit_heat(c),
      [&](const StepFields<T>& fields, const parallel::LevelSplit& split) {
        return flux_step<T>(c, m, backend, split.level[0], fields);
      },
      false);
}

template SolveResult solve_flux_implicit_heat<float>(const Case&, const op::Medium&,
                                                     Backend<float>&, output::RunOutput&,
                                                     const SolveOptions&);
template SolveResult solve_flux_implicit_heat<double>(const Case&, const op::Medium&,
                                                      Backend<double>&, output::RunOutput&,
                                                      const SolveOptions&);

}  // namespace fdsolve::heat
