// The steady multigrid solve's set-up, then its cycles as iterations of the solve loop
// (cycle_iteration.hpp). Each cycle starts with a probe: the first smoothing sweep of the next
// cycle, whose update is the scaled residual of the current state. Its norms decide
// convergence before the state changes; a converged or stopped run discards the probe, so the
// residual costs no extra sweep.
#include "multigrid_solve.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "case_reader.hpp"
#include "cycle_iteration.hpp"
#include "cycle_work.hpp"
#include "stencil_hierarchy.hpp"
#include "mixed_cycles.hpp"
#include "loop/discretization_stop.hpp"
#include "richardson.hpp"
#include "prompt_stop.hpp"
#include "loop/field_io.hpp"
#include "loop/loop_support.hpp"
#include "loop/progress.hpp"
#include "loop/run_checks.hpp"
#include "loop/start_state.hpp"
#include "loop/stop_rules.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/field_programs.hpp"
#include "problem/problem_setup.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve::multigrid {

parallel::LevelSplit split_over_ranks(const Case& c, const std::vector<LevelGeometry>& levels,
                                     const SolveOptions& options) {
  const std::array<int, 3> ranks =
      options.decomposition ? options.decomposition->ranks : std::array<int, 3>{1, 1, 1};
  return parallel::split_levels(c, level_points(levels), ranks, options.comm.rank());
}

parallel::LevelSplit fine_split_only(const Case& c, const std::vector<LevelGeometry>& levels,
                                    const SolveOptions& options) {
  parallel::LevelSplit s;
  s.level = {options.decomposition ? *options.decomposition : parallel::decompose(c, {1, 1, 1}, 0)};
  s.gather = 1;
  s.levels = static_cast<int>(levels.size());
  return s;
}

std::string mixed_precision_obstacle(const Case& c) {
  if (!c.solve.multigrid.float_cycles) return "solve.multigrid.precision is same";
  if (c.precision == Precision::Float) return "the run is in float already";
  return "";
}

std::string describe_cycles(const MultigridSpec& spec) {
  return fmt::format("multigrid {}({},{}) cycles{}", spec.cycle == CycleKind::V ? "V" : "W",
                     spec.pre_smooth, spec.post_smooth, spec.fmg ? ", full multigrid start" : "");
}

std::size_t multigrid_memory(const Case& c) { return multigrid_memory(c, {1, 1, 1}, 0); }

std::size_t multigrid_memory(const Case& c, std::array<int, 3> ranks, int rank) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto levels = build_hierarchy(fine_level(c));
  const parallel::LevelSplit split = parallel::split_levels(c, level_points(levels), ranks, rank);
  const Layout L = field_layout(c, value, split.level[0].sub);
  std::size_t fields = 3 + (needs_previous_state(c) ? 1 : 0);
  std::size_t bytes = fields * static_cast<std::size_t>(L.size) * value;
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type == BoundaryType::Neumann && !bc.gradient.is_constant())
      bytes += static_cast<std::size_t>(halo_axis(L, face / 2).face_size()) * value;
  }
  // Float cycles in a double solve add the float hierarchy (full multigrid's start holds the
  // double coarse levels beside it).
  if (mixed_precision_obstacle(c).empty()) bytes += MixedCycles::extra_bytes(levels);
  return bytes + (value == sizeof(float) ? StencilHierarchy<float>::coarse_bytes(levels, split, rank)
                                         : StencilHierarchy<double>::coarse_bytes(levels, split, rank));
}

namespace {

/// How a level came from the next finer one, where not by halving every axis: e.g.
/// "z kept; y not nested: interpolated".
std::string describe_ratio(const LevelGeometry& g) {
  std::string kept, interpolated;
  for (int a = 0; a < g.dims; ++a) {
    std::string& list = g.ratio.num[a] == g.ratio.den[a] ? kept : interpolated;
    if (g.ratio.num[a] * 2 == g.ratio.den[a]) continue;
    list += std::string(list.empty() ? "" : " ") + "xyz"[a];
  }
  std::string text;
  if (!kept.empty()) text = kept + " kept";
  if (!interpolated.empty())
    text += (text.empty() ? "" : "; ") + interpolated + " not nested: interpolated";
  return text;
}

}  // namespace

std::vector<std::string> describe_hierarchy(const Case& c, double alpha, double beta) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto levels = build_hierarchy(fine_level(c));
  const CycleWork work = cycle_work(c.solve.multigrid, levels, alpha, beta);
  const LevelOperator op0 = level_operator(levels[0], alpha, beta);
  std::vector<std::string> lines;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const LevelGeometry& g = levels[l];
    const double mib = static_cast<double>(3 * g.layout(value).size * value) / (1 << 20);
    std::string note;
    if (l + 1 == levels.size())
      note = work.cg_bottom ? fmt::format(" (bottom: conjugate gradients, at most {} iterations)",
                                          cg_bottom_iterations(g.box.cells()))
                            : fmt::format(" (bottom: {} sweeps, spectral radius {:.4f})",
                                          work.bottom_sweeps, work.bottom_radius);
    else if (l > 0 && !g.ratio.halves(g.dims))
      note = " (" + describe_ratio(g) + ")";
    lines.push_back(fmt::format("  level {}: {} nodes, h = [{:g}], {:.2f} MiB{}", l,
                                fmt::join(g.n.begin(), g.n.begin() + g.dims, "x"),
                                fmt::join(g.spacing.begin(), g.spacing.begin() + g.dims, ", "),
                                mib, note));
  }
  lines.push_back(fmt::format("  relaxation weight {:.4f}, smoothing factor {:.3f} per sweep",
                              op0.omega, op0.smoothing_factor));
  lines.push_back(fmt::format("  expected work: about {:.1f} fine sweeps per cycle", work.total));
  return lines;
}

template <typename T>
SolveResult solve_multigrid(const Case& c, Backend<T>& backend, output::RunOutput& out,
                            const SolveOptions& options) {
  const KernelId kernel = choose_kernel(c, backend);
  const parallel::Comm& comm = options.comm;
  const auto levels = build_hierarchy(fine_level(c));
  const parallel::LevelSplit split = split_over_ranks(c, levels, options);
  const parallel::Decomposition& d = split.level[0];
  const Subdomain& sub = d.sub;
  const Layout L = field_layout(c, sizeof(T), sub);
  const Box box = update_box(c, sub);
  const index_t updated_cells = levels[0].box.cells();  // over all ranks
  if (const std::string w = cycle_work_warning(c, levels); !w.empty()) spdlog::warn("{}", w);

  SolveResult r;
  r.kernel = backend.kernels(c.grid.dims)[kernel.index];
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  RunClock::get().mark("initial state ready");
  if (options.resume) spdlog::info("resuming from cycle {}", done);

  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, comm, d);
  if (halo.active()) spdlog::info("halo exchange: {}", halo.path());
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  // -div(beta grad u) = f with beta one number: A = -beta lap (its residual in the case's units).
  settings.beta = c.problem.coefficient.is_constant() ? c.problem.coefficient.constant : 1.0;
  settings.fuse_residual_restriction = fused_restriction_pays(backend.traits(), c.grid.dims);
  const auto fine_halo = [&](Buffer<T>& x) { boundaries.before_sweep(x, x, 0.0, 0.0, halo); };
  // The fine right-hand side g = (omega / diag) f: a field when f varies, else a constant.
  const double g_scale = level_operator(levels[0], settings.alpha, settings.beta).rhs_scale;
  Buffer<T> g_field;
  if (has_source_field(c)) {
    g_field = backend.allocate(L.size);
    load_source(c, backend, L, sub, g_scale, 0.0, g_field);  // evaluated on the backend
  }
  const double f_constant =
      c.problem.equation == Equation::Poisson && c.problem.source.is_constant()
          ? c.problem.source.constant
          : 0.0;
  RunClock::get().mark("source ready");

  // The rest for either iteration: double (or float) cycles, or float cycles in a double
  // defect correction (mixed_cycles.hpp).
  const auto run = [&](auto& cycles, const std::string& how) {
    RunClock::get().mark("hierarchy ready");
    if (!cycles.bottom_by_cg() && cycles.bottom_sweeps() >= 1000000000)
      throw BackendError("multigrid: the bottom solve on the coarsest grid does not converge");
    cycles.set_fine_rhs(g_field.size() ? g_field.data() : nullptr, g_scale * f_constant);
    spdlog::info("{}{}: {} levels, bottom solve {} on {}", describe_cycles(c.solve.multigrid), how,
                 levels.size(),
                 cycles.bottom_by_cg() ? std::string("by conjugate gradients")
                                       : fmt::format("{} sweeps", cycles.bottom_sweeps()),
                 fmt::join(levels.back().n.begin(), levels.back().n.begin() + c.grid.dims, "x"));

    // solve.tolerance: discretization: the grid through every other node solved first, for
    // Richardson's estimate of the fine grid's discretization error (richardson.hpp).
    std::unique_ptr<RichardsonEstimate<T>> estimate;
    std::function<double(const Buffer<T>&)> richardson;
    if (c.solve.tolerance_discretization) {
      if (comm.several())
        throw InputError(c.where("solve.tolerance") +
                         "solve.tolerance: discretization runs on one rank (its coarse grid's "
                         "solve is not split over ranks); give a number");
      if (const std::string why = richardson_obstacle(c); !why.empty())
        throw InputError(c.where("solve.tolerance") + "solve.tolerance: discretization: " + why);
      estimate = std::make_unique<RichardsonEstimate<T>>(c, backend, L, box);
      r.coarse_seconds = estimate->coarse_seconds();
      spdlog::info(
          "tolerance: discretization: the grid through every other node solved in {:.3f} s; the "
          "solve stops when the estimated algebraic error is at most {:g} x the estimated "
          "discretization error",
          r.coarse_seconds, DiscretizationStop::kFraction);
      RunClock::get().mark("coarse grid solved");
      richardson = [&](const Buffer<T>& u) { return (*estimate)(u); };
    }
    const FineState<T> fine{cur, next, done, earlier_seconds, L, d, box, updated_cells,
                            c.solve.multigrid.fmg};
    return solve_by_cycles(c, backend, out, options, cycles, fine, r, richardson);
  };
  if (const std::string why = mixed_precision_obstacle(c); why.empty()) {
    if constexpr (std::is_same_v<T, double>) {
      MixedCycles cycles(levels, settings, backend, kernel, fine_halo, L, box,
                         LevelRanks{comm, &split});
      SolveResult result = run(cycles, ", float cycles in a double defect correction");
      result.mixed = output::MixedPrecision{cycles.fallback_cycle()};
      return result;
    }
  } else if (c.solve.multigrid.float_cycles) {
    spdlog::warn("solve.multigrid.precision: float does not apply: {}; the cycles run in {}", why,
                 c.precision == Precision::Float ? "float" : "double");
  }
  StencilHierarchy<T> cycles(levels, settings, backend, kernel, fine_halo, LevelRanks{comm, &split});
  return run(cycles, "");
}

template SolveResult solve_multigrid<float>(const Case&, Backend<float>&, output::RunOutput&,
                                            const SolveOptions&);
template SolveResult solve_multigrid<double>(const Case&, Backend<double>&, output::RunOutput&,
                                             const SolveOptions&);

}  // namespace fdsolve::multigrid
