// The constant stencil's side of the steady solve (steady_solve.hpp), whose cycles run as
// iterations of the solve loop (cycle_iteration.hpp). Each cycle starts with a probe: the first
// smoothing sweep of the next cycle, whose update is the scaled residual of the current state.
// Its norms decide convergence before the state changes; a converged or stopped run discards the
// probe, so the residual costs no extra sweep.
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
#include "steady_solve.hpp"
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

std::size_t multigrid_memory(const Case& c, std::array<int, 3> ranks, int rank, bool steady) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto levels = build_hierarchy(fine_level(c));
  const parallel::LevelSplit split = parallel::split_levels(c, level_points(levels), ranks, rank);
  const Layout L = field_layout(c, value, split.level[0].sub);
  // u and its second buffer; a steady solve's right-hand side, its state before a cycle where
  // it is needed, and the copy of u that a cycle cut short by a signal restores (PromptStop).
  std::size_t fields = 2 + (steady ? 2 + (needs_previous_state(c) ? 1 : 0) : 0);
  std::size_t bytes = fields * static_cast<std::size_t>(L.size) * value;
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type == BoundaryType::Neumann && !bc.gradient.is_constant())
      bytes += static_cast<std::size_t>(halo_axis(L, face / 2).face_size()) * value;
  }
  // Float cycles in a double solve add the float hierarchy (full multigrid's start holds the
  // double coarse levels beside it).
  if (mixed_precision_obstacle(c).empty()) bytes += MixedCycles::extra_bytes(levels);
  // Auto may run the gathered levels on every rank (where the halo travels through NCCL): the
  // estimate counts them, an upper bound.
  const bool redundant = c.parallel.coarse_levels != CoarseLevels::Gather;
  return bytes +
         (value == sizeof(float) ? StencilHierarchy<float>::coarse_bytes(levels, split, rank, redundant)
                                 : StencilHierarchy<double>::coarse_bytes(levels, split, rank, redundant));
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

namespace {

/// The constant stencil's side of a steady solve (steady_solve.hpp): every level split over the
/// ranks, the right-hand side scaled by omega / diag, full multigrid's start, and what only
/// these cycles offer: solve.tolerance: discretization and float cycles in a double defect
/// correction (mixed_cycles.hpp).
template <typename T>
class StencilSteady final : public SteadyOperator<T> {
 public:
  StencilSteady(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                const SolveOptions& options)
      : c_(p.c),
        p_(p),
        backend_(backend),
        out_(out),
        options_(options),
        kernel_(choose_kernel(p.c, backend)) {
    if (const std::string w = cycle_work_warning(c_, p.levels); !w.empty()) spdlog::warn("{}", w);
    settings_.spec = c_.solve.multigrid;
    // -div(beta grad u) = f with beta one number: A = -beta lap (its residual in the case's
    // units).
    settings_.beta = c_.problem.coefficient.is_constant() ? c_.problem.coefficient.constant : 1.0;
    settings_.fuse_residual_restriction = fused_restriction_pays(backend.traits(), c_.grid.dims);
  }

  std::string kernel() const override { return backend_.kernels(c_.grid.dims)[kernel_.index]; }
  const char* iteration_name() const override { return "cycle"; }
  double rhs_scale() const override {
    return level_operator(p_.levels[0], settings_.alpha, settings_.beta).rhs_scale;
  }

  SolveResult solve(const SteadyFields<T>& f, SolveResult r) override {
    const auto fine_halo = [&f](Buffer<T>& x) { f.fill_ghosts(x); };
    if (const std::string why = mixed_precision_obstacle(c_); why.empty()) {
      if constexpr (std::is_same_v<T, double>) {
        MixedCycles cycles(p_.levels, settings_, backend_, kernel_, fine_halo, p_.layout, p_.box,
                           LevelRanks{options_.comm, &p_.split, c_.parallel.coarse_levels});
        SolveResult result = run(cycles, ", float cycles in a double defect correction", f, r);
        result.mixed = output::MixedPrecision{cycles.fallback_cycle()};
        return result;
      }
    } else if (c_.solve.multigrid.float_cycles) {
      spdlog::warn("solve.multigrid.precision: float does not apply: {}; the cycles run in {}",
                   why, c_.precision == Precision::Float ? "float" : "double");
    }
    StencilHierarchy<T> cycles(p_.levels, settings_, backend_, kernel_, fine_halo,
                               LevelRanks{options_.comm, &p_.split, c_.parallel.coarse_levels});
    return run(cycles, "", f, r);
  }

 private:
  /// The rest for either cycles: double (or float) ones, or float ones in a double defect
  /// correction.
  template <typename C>
  SolveResult run(C& cycles, const std::string& how, const SteadyFields<T>& f, SolveResult& r) {
    RunClock::get().mark("hierarchy ready");
    if (!cycles.bottom_by_cg() && cycles.bottom_sweeps() >= 1000000000)
      throw BackendError("multigrid: the bottom solve on the coarsest grid does not converge");
    cycles.set_fine_rhs(f.f, rhs_scale() * f.f_constant);
    spdlog::info(
        "{}{}: {} levels, bottom solve {} on {}", describe_cycles(c_.solve.multigrid), how,
        p_.levels.size(),
        cycles.bottom_by_cg() ? std::string("by conjugate gradients")
                              : fmt::format("{} sweeps", cycles.bottom_sweeps()),
        fmt::join(p_.levels.back().n.begin(), p_.levels.back().n.begin() + c_.grid.dims, "x"));

    // solve.tolerance: discretization: the grid through every other node solved first, for
    // Richardson's estimate of the fine grid's discretization error (richardson.hpp).
    std::unique_ptr<RichardsonEstimate<T>> estimate;
    std::function<double(const Buffer<T>&)> richardson;
    if (c_.solve.tolerance_discretization) {
      if (options_.comm.several())
        throw InputError(c_.where("solve.tolerance") +
                         "solve.tolerance: discretization runs on one rank (its coarse grid's "
                         "solve is not split over ranks); give a number");
      if (const std::string why = richardson_obstacle(c_); !why.empty())
        throw InputError(c_.where("solve.tolerance") + "solve.tolerance: discretization: " + why);
      estimate = std::make_unique<RichardsonEstimate<T>>(c_, backend_, p_.layout, p_.box);
      r.coarse_seconds = estimate->coarse_seconds();
      spdlog::info(
          "tolerance: discretization: the grid through every other node solved in {:.3f} s; the "
          "solve stops when the estimated algebraic error is at most {:g} x the estimated "
          "discretization error",
          r.coarse_seconds, DiscretizationStop::kFraction);
      RunClock::get().mark("coarse grid solved");
      richardson = [&](const Buffer<T>& u) { return (*estimate)(u); };
    }
    FineState<T> fine = f.state;
    fine.fmg_start = c_.solve.multigrid.fmg;
    return solve_by_cycles(c_, backend_, out_, options_, cycles, fine, r, richardson);
  }

  const Case& c_;
  const problem::Problem& p_;
  Backend<T>& backend_;
  output::RunOutput& out_;
  const SolveOptions& options_;
  KernelId kernel_;
  CycleSettings settings_;
};

}  // namespace

template <typename T>
std::unique_ptr<SteadyOperator<T>> stencil_steady(const problem::Problem& p, Backend<T>& backend,
                                                  output::RunOutput& out,
                                                  const SolveOptions& options) {
  return std::make_unique<StencilSteady<T>>(p, backend, out, options);
}

template std::unique_ptr<SteadyOperator<float>> stencil_steady<float>(const problem::Problem&,
                                                                      Backend<float>&,
                                                                      output::RunOutput&,
                                                                      const SolveOptions&);
template std::unique_ptr<SteadyOperator<double>> stencil_steady<double>(const problem::Problem&,
                                                                        Backend<double>&,
                                                                        output::RunOutput&,
                                                                        const SolveOptions&);

}  // namespace fdsolve::multigrid
