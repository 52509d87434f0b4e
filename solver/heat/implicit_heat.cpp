// The implicit heat schemes' entry: the stepper over the constant stencil (stencil_step.hpp) or
// the flux form (flux_step.hpp) in the shared implicit loop, and what `check` and the memory
// estimate say about them.
#include "implicit_heat.hpp"

#include <fmt/format.h>

#include "flux_step.hpp"
#include "implicit_iteration.hpp"
#include "loop/loop_support.hpp"
#include "loop/stability.hpp"
#include "multigrid/cycle_work.hpp"
#include "multigrid/flux_solve.hpp"
#include "multigrid/multigrid_solve.hpp"
#include "operator/medium.hpp"
#include "problem/problem_setup.hpp"
#include "problem/robin_faces.hpp"
#include "problem/weights.hpp"
#include "stencil_step.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve::heat {

using namespace multigrid;

std::string step_detail(const StepSolve& s, double norm, const output::HistoryRow& row) {
  std::string text =
      fmt::format("{} cycles, residual {:.3e} from {:.3e}", s.cycles, norm, s.first_norm);
  text += fmt::format("  u in [{:.4g}, {:.4g}]", row.min, row.max);
  if (row.diagnosed) text += fmt::format(" mean {:.4g}", row.mean);
  if (row.diagnosed && row.nonfinite > 0) text += fmt::format("  {} non-finite", row.nonfinite);
  return text;
}

namespace {

const char* scheme_name(const Case& c) {
  return c.time.scheme == TimeScheme::CrankNicolson ? "Crank-Nicolson" : "backward Euler";
}

}  // namespace

std::string describe_implicit_heat(const Case& c) {
  return fmt::format("{} steps, each by {}", scheme_name(c), describe_cycles(c.solve.multigrid));
}

std::string describe_flux_implicit_heat(const Case& c) {
  MultigridSpec spec = c.solve.multigrid;
  spec.fmg = false;  // each step starts from the old u
  return fmt::format(
      "{} steps, each by {}{} (Galerkin coarse operators where the levels nest)", scheme_name(c),
      flux_uses_cg(c) ? "conjugate gradients preconditioned by " : "", describe_cycles(spec));
}

std::size_t implicit_heat_memory(const Case& c) { return implicit_heat_memory(c, {1, 1, 1}, 0); }

namespace {

/// Fields of the fine layout that the implicit steps keep beside the cycles': the step's
/// right-hand side, a source field, the earlier steps (earlier_steps.hpp: three for
/// Crank-Nicolson's extrapolation, one for backward Euler's, one for the diagnostics and the
/// update field, and a spare), and on the flux form with a varying capacity the right-hand
/// side's diagonal with the capacity it is formed from (and with Robin faces the diagonal's
/// base and the Robin term).
std::size_t step_fields(const Case& c, bool flux) {
  const int kept = !c.time.extrapolate ? 0 : c.time.scheme == TimeScheme::CrankNicolson ? 3 : 1;
  std::size_t n = 1 + (has_source_field(c) ? 1 : 0) +
                  static_cast<std::size_t>(std::max(kept, needs_previous_state(c) ? 1 : 0)) +
                  (kept > 0 ? 1 : 0);
  if (flux && !c.problem.capacity.is_constant()) n += 2 + (has_robin_faces(c) ? 2 : 0);
  return n;
}

}  // namespace

std::size_t implicit_heat_memory(const Case& c, std::array<int, 3> ranks, int rank) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto levels = build_hierarchy(fine_level(c));
  const Subdomain sub = parallel::split_levels(c, level_points(levels), ranks, rank).level[0].sub;
  const auto fine = static_cast<std::size_t>(field_layout(c, value, sub).size) * value;
  return multigrid_memory(c, ranks, rank, false) + step_fields(c, false) * fine;
}

std::size_t flux_implicit_heat_memory(const Case& c) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto fine = static_cast<std::size_t>(field_layout(c, value).size) * value;
  return flux_multigrid_memory(c, false) + step_fields(c, true) * fine;
}

std::vector<std::string> describe_implicit_plan(const Case& c) {
  const TimePlan p = heat_time_plan(c);
  std::vector<std::string> lines;
  const bool field = op::may_need_flux(c);  // a diffusivity field or held nodes
  std::string k = field ? std::string("k from problem.diffusivity, the largest k_f/h^2 sum")
                        : fmt::format("k = {:g}", c.problem.diffusivity);
  if (!c.problem.capacity.is_constant())
    k += ", c from problem.capacity, the smallest c_i over node i's sum";
  else if (c.problem.capacity.constant != 1.0)
    k += fmt::format(", c = {:g}", c.problem.capacity.constant);
  lines.push_back(fmt::format("stability limit of the explicit step: dt <= {:.6g} ({}, {})",
                              p.limit, k, describe_stencil(c)));
  lines.push_back(fmt::format("dt: {:.6g} (given) = {:.4g} x the explicit limit ({} has none), "
                              "{} steps to t = {:g}",
                              p.dt, p.dt / p.limit, scheme_name(c), p.steps, c.time.end));
  if (c.time.scheme == TimeScheme::CrankNicolson) {
    const CrankNicolsonRinging g = crank_nicolson_ringing(c, p);
    lines.push_back(fmt::format("Crank-Nicolson amplification of the highest mode: {:.4f} per step",
                                g.amplification));
    if (p.startup > 0)
      lines.push_back(fmt::format(
          "Rannacher start: {} backward-Euler steps of dt/2 = {:g} first (time.startup_steps), "
          "which multiply the highest mode by {:.3g}, so that a jump in the initial or boundary "
          "data does not ring",
          p.startup, 0.5 * p.dt, g.startup_damping));
    if (g.rings)
      lines.push_back(fmt::format(
          "warning: dt is {:.3g} x the explicit limit (above 3x, the highest mode's "
          "amplification is below -0.5): sharp initial data (a jump, a boundary value switched "
          "on at t = 0) rings node to node for about {:.0f} steps (to 1/1000) of the {} steps; "
          "set time.startup_steps (2 damps it), or use dt <= {:.6g}",
          p.dt / p.limit, g.steps_to_damp, p.steps, 3.0 * p.limit));
  }
  if (field) {
    lines.push_back(fmt::format("method: {}", describe_flux_implicit_heat(c)));
    return lines;
  }
  lines.push_back(fmt::format("method: {}", describe_implicit_heat(c)));
  const double beta = (c.time.scheme == TimeScheme::CrankNicolson ? 0.5 : 1.0) *
                      (p.dt / capacity_number(c)) * c.problem.diffusivity;
  for (std::string& l : describe_hierarchy(c, 1.0, beta)) lines.push_back(std::move(l));
  const auto levels = build_hierarchy(fine_level(c));
  if (const std::string w = cycle_work_warning(c, levels); !w.empty())
    lines.push_back("warning: " + w);
  return lines;
}

template <typename T>
SolveResult solve_implicit_heat(const problem::Problem& p, Backend<T>& backend,
                                output::RunOutput& out, const SolveOptions& options) {
  const Case& c = p.c;
  if (p.flux())
    return solve_implicit_steps<T>(
        p, backend, out, options, "flux", describe_flux_implicit_heat(c),
        [&](const StepFields<T>& fields) { return flux_step<T>(p, backend, fields); });
  const KernelId kernel = choose_kernel(c, backend);
  return solve_implicit_steps<T>(p, backend, out, options,
                                 backend.kernels(c.grid.dims)[kernel.index],
                                 describe_implicit_heat(c), [&](const StepFields<T>& fields) {
                                   return stencil_step<T>(c, backend, kernel, p.levels, fields,
                                                          LevelRanks{options.comm, &p.split, c.parallel.coarse_levels});
                                 });
}

template SolveResult solve_implicit_heat<float>(const problem::Problem&, Backend<float>&,
                                                output::RunOutput&, const SolveOptions&);
template SolveResult solve_implicit_heat<double>(const problem::Problem&, Backend<double>&,
                                                 output::RunOutput&, const SolveOptions&);

}  // namespace fdsolve::heat
