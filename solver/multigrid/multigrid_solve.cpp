// The multigrid loop. Each cycle starts with a probe: the first smoothing sweep of the next
// cycle, whose update is the scaled residual of the current state. Its norms decide
// convergence before the state changes; a converged or stopped run discards the probe, so the
// residual costs no extra sweep.
#include "multigrid_solve.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "cycle_work.hpp"
#include "cycles.hpp"
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
#include "problem/problem_setup.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve::multigrid {
namespace {

std::string check_detail(const output::HistoryRow& row) {
  std::string text = std::isnan(row.factor) ? std::string("initial residual")
                                            : fmt::format("factor {:.3f}", row.factor);
  text += fmt::format("  u in [{:.4g}, {:.4g}]", row.min, row.max);
  if (row.diagnosed && row.nonfinite > 0) text += fmt::format("  {} non-finite", row.nonfinite);
  return text;
}

}  // namespace

parallel::LevelSplit split_over_ranks(const Case& c, const std::vector<LevelGeometry>& levels,
                                     const SolveOptions& options) {
  const std::array<int, 3> ranks =
      options.decomposition ? options.decomposition->ranks : std::array<int, 3>{1, 1, 1};
  return parallel::split_levels(c, level_points(levels), ranks, options.comm.rank());
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
  return bytes + (value == sizeof(float) ? Cycles<float>::coarse_bytes(levels, split, rank)
                                         : Cycles<double>::coarse_bytes(levels, split, rank));
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
  if (options.resume) spdlog::info("resuming from cycle {}", done);

  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, comm, d);
  if (halo.active()) spdlog::info("halo exchange: {}", halo.path());
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.fuse_residual_restriction = fused_restriction_pays(backend.name(), c.grid.dims);
  Cycles<T> cycles(levels, settings, backend, kernel,
                   [&](Buffer<T>& x) { boundaries.before_sweep(x, x, 0.0, 0.0, halo); },
                   LevelRanks{comm, &split});
  if (!cycles.bottom_by_cg() && cycles.bottom_sweeps() >= 1000000000)
    throw BackendError("multigrid: the bottom solve on the coarsest grid does not converge");
  // The fine right-hand side g = (omega / diag) f: a field when f varies, else a constant.
  const double g_scale = cycles.op(0).rhs_scale;
  Buffer<T> g_field;
  if (has_source_field(c)) {
    g_field = backend.allocate(L.size);
    backend.upload(g_field, source_values<T>(c, L, sub, g_scale, 0.0).data(), L.size);
  }
  const double f_constant =
      c.problem.equation == Equation::Poisson && c.problem.source.is_constant()
          ? c.problem.source.constant
          : 0.0;
  cycles.set_fine_rhs(g_field.size() ? g_field.data() : nullptr, g_scale * f_constant);
  spdlog::info("{}: {} levels, bottom solve {} on {}", describe_cycles(c.solve.multigrid),
               levels.size(),
               cycles.bottom_by_cg() ? std::string("by conjugate gradients")
                                     : fmt::format("{} sweeps", cycles.bottom_sweeps()),
               fmt::join(levels.back().n.begin(), levels.back().n.begin() + c.grid.dims, "x"));

  const bool keep_previous = needs_previous_state(c);
  Buffer<T> prev;
  if (keep_previous) {
    prev = backend.allocate(L.size);
    backend.copy(prev, cur);
  }
  // The rest of a cycle after its probe, recorded once (a CUDA graph: one launch instead of a
  // hundred small ones on the coarse levels). A recording must leave the fine buffers as it
  // found them: an even number of fine sweeps per cycle does.
  // Full multigrid too: O(levels^2) small launches, run once.
  std::unique_ptr<Replay> rest_of_cycle, fmg;
  if (cycles.recordable()) {
    rest_of_cycle = backend.record([&] { cycles.finish_cycle(cur, next); });
    if (done == 0 && c.solve.multigrid.fmg)
      fmg = backend.record([&] { cycles.full_multigrid(cur, next); });
  }
  FieldWriter<T> writer(c, backend, L, out, comm, d);
  Progress progress(options.live_progress, c.solve.max_iterations, updated_cells, done, false);
  const output::GridMeta grid = grid_meta(c);
  StagnationWatch stagnation(c, true);
  StallWatch stall;
  const WallLimit wall_limit(options.max_wall_seconds);
  Diagnostics diag;
  const double residual_scale = cycles.residual_scale();
  double target = std::max(c.solve.absolute_tolerance, c.solve.tolerance * r.first_norm);
  std::int64_t last_snapshot = -1;
  std::int64_t it = done;
  // Signals abandon a long cycle part-way (prompt_stop.hpp); short ones stop at their end.
  const auto signalled = [&] {
    return options.stop && options.stop->load(std::memory_order_relaxed);
  };
  PromptStop<T> prompt(backend, L.size, updated_cells,
                       [&] { return signalled() || wall_limit.reached(); }, !comm.several());
  bool abandoned = false;
  const auto start = std::chrono::steady_clock::now();
  const auto state_now = [&] {
    return LoopState{it, static_cast<double>(it), r.first_norm,
                     earlier_seconds + seconds_since(start), backend.name(), r.kernel};
  };
  const auto norm_of = [&](const SweepStats& s) {
    return c.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  };
  // The probe's statistics over every rank, merged in rank order (deterministic).
  const auto probe = [&] {
    return scale_norms(parallel::reduce_stats(comm, cycles.probe(cur, next)), residual_scale);
  };
  const auto diagnose = [&](const T* before) {
    return parallel::reduce_diagnostics(comm, backend.diagnose(before, cur.data(), L, box), sub);
  };

  // A fresh solve by full multigrid: the initial residual (the tolerance's reference), then
  // the FMG cycle, iteration 1.
  if (it == 0 && c.solve.multigrid.fmg) {
    const SweepStats s0 = probe();
    r.first_norm = norm_of(s0);
    target = std::max(c.solve.absolute_tolerance, c.solve.tolerance * r.first_norm);
    // A run interrupted during its first cycle resumes at cycle 0, its initial row restored.
    if (!options.resume) out.add_history(history_row(0, 0.0, s0, nullptr, seconds_since(start)));
    progress.check(0, r.first_norm, target, "initial residual");
    const bool whole = prompt.run(cycles, cur, [&] {
      if (fmg && !prompt.next_abandonable())
        fmg->run();
      else
        cycles.full_multigrid(cur, next);
    });
    if (whole) it = 1;
    abandoned = !whole;
  }

  while (!abandoned) {
    const SweepStats stats = probe();
    const double norm = norm_of(stats);
    if (it == 0) {
      r.first_norm = norm;
      target = std::max(c.solve.absolute_tolerance, c.solve.tolerance * norm);
    }
    const bool resumed_row = it == done && options.resume;  // already in the restored history
    if (!resumed_row) {
      const Diagnostics* diagnosed = nullptr;
      if (c.solve.diagnostics && it > 0) {
        diag = diagnose(prev.data());
        diagnosed = &diag;
      }
      output::HistoryRow row = history_row(it, static_cast<double>(it), stats, diagnosed,
                                           earlier_seconds + seconds_since(start));
      row.factor = norm_factor(row, out.history(), c.solve.norm);
      out.add_history(row);
      progress.check(it, norm, target, check_detail(row));
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
      const double limit = c.solve.divergence_factor * r.first_norm;
      if (diverged(norm, limit, stats, diagnosed)) {
        const T* before = keep_previous ? prev.data() : cur.data();
        if (!diagnosed) diag = diagnose(before);
        r.divergence = locate_divergence(it, static_cast<double>(it), norm, limit, diag, grid);
        r.status = SolveStatus::Diverged;
        break;
      }
      if (norm <= target) {
        r.status = SolveStatus::Converged;
        break;
      }
      if (it > 0 && stall.stalled(row.factor)) {
        r.status = SolveStatus::Stalled;
        r.stop_message =
            describe_stall(c, it, norm, target, std::max(std::abs(row.min), std::abs(row.max)));
        break;
      }
      if (it > 0) stagnation.check(out.history(), target);
      if (it > 0 && c.output.every > 0 && it % c.output.every == 0) {
        writer.snapshot(cur, keep_previous ? prev : cur, it, static_cast<double>(it));
        out.flush_history();
        last_snapshot = it;
      }
      if (it > 0 && c.checkpoint.every > 0 && it % c.checkpoint.every == 0)
        writer.checkpoint(cur, state_now());
    } else {
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
    }
    // A signal (or the clock) reaches the ranks at different moments: they stop together
    // (integer maximum; a signal outranks the time limit).
    const int mine = signalled() ? 2 : wall_limit.reached() ? 1 : 0;
    if (const long long why = comm.several() ? comm.max(mine) : mine; why != 0) {
      r.status = why == 2 ? SolveStatus::Interrupted : SolveStatus::TimeLimit;
      break;
    }
    if (it >= c.solve.max_iterations) break;
    if (keep_previous) backend.copy(prev, cur);
    abandoned = !prompt.run(cycles, cur, [&] {
      if (rest_of_cycle && !prompt.next_abandonable())
        rest_of_cycle->run();
      else
        cycles.finish_cycle(cur, next);
    });
    if (!abandoned) ++it;
  }
  if (abandoned) {
    r.status = signalled() ? SolveStatus::Interrupted : SolveStatus::TimeLimit;
    spdlog::info("cycle {} abandoned part-way on the {}: its start restored, the checkpoint "
                 "holds cycle {}",
                 it + 1, r.status == SolveStatus::Interrupted ? "signal" : "wall-time limit", it);
  }
  backend.synchronize();
  progress.finish();
  const double session = seconds_since(start);
  r.iterations = it;
  r.time = static_cast<double>(it);
  r.seconds = earlier_seconds + session;
  r.cells_per_second = session > 0 ? static_cast<double>(updated_cells) *
                                         static_cast<double>(it - done) / session
                                   : 0;
  if (r.status == SolveStatus::Interrupted || r.status == SolveStatus::TimeLimit)
    writer.checkpoint(cur, state_now());
  const Buffer<T>& before = keep_previous ? prev : cur;
  if (r.divergence) {
    writer.snapshot(cur, before, it, static_cast<double>(it),
                    {{"status", "diverged"},
                     {"divergence", describe_divergence(*r.divergence, c.grid.dims, false)}});
    r.divergence->snapshot = std::filesystem::path(out.snapshots().back()).filename().string();
  } else if (last_snapshot != it) {
    writer.snapshot(cur, before, it, static_cast<double>(it));
  }
  out.flush_history();
  return r;
}

template SolveResult solve_multigrid<float>(const Case&, Backend<float>&, output::RunOutput&,
                                            const SolveOptions&);
template SolveResult solve_multigrid<double>(const Case&, Backend<double>&, output::RunOutput&,
                                             const SolveOptions&);

}  // namespace fdsolve::multigrid
