// The loop of a steady multigrid solve, for any iteration that offers probe / finish_cycle /
// full_multigrid (StencilHierarchy for the constant stencils, FluxIteration for variable coefficients):
// each iteration starts with a probe whose norms decide convergence before the state changes;
// history, checks, snapshots, checkpoints, signals and the wall-time limit are handled here.
#pragma once

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>

#include "backend.hpp"
#include "loop/end_checkpoint.hpp"
#include "loop/field_io.hpp"
#include "loop/jacobi.hpp"
#include "loop/loop_support.hpp"
#include "loop/progress.hpp"
#include "loop/run_checks.hpp"
#include "loop/stop_rules.hpp"
#include "parallel/reduce.hpp"
#include "problem/problem_setup.hpp"
#include "loop/discretization_stop.hpp"
#include "level_split_summary.hpp"
#include "prompt_stop.hpp"

namespace fdsolve::multigrid {
namespace loop_detail {

inline std::string check_detail(const output::HistoryRow& row) {
  std::string text = std::isnan(row.factor) ? std::string("initial residual")
                                            : fmt::format("factor {:.3f}", row.factor);
  text += fmt::format("  u in [{:.4g}, {:.4g}]", row.min, row.max);
  if (row.diagnosed && row.nonfinite > 0) text += fmt::format("  {} non-finite", row.nonfinite);
  return text;
}


/// "  estimated errors: discretization 1.2e-05, algebraic 3.4e-07" (either may be unknown).
inline std::string estimate_detail(const DiscretizationStop& d) {
  const auto value = [](bool known, double v) {
    return known ? fmt::format("{:.3e}", v) : std::string("unknown");
  };
  return fmt::format("  estimated errors: discretization {}, algebraic {}",
                     value(d.has_discretization(), d.discretization()),
                     value(d.has_algebraic(), d.algebraic()));
}

}  // namespace loop_detail

/// Runs iterations of `cycles` on u = `cur` (with `next` its second buffer) from iteration
/// `done` until the case's stop rules end it; `fmg_start`: a fresh solve begins with
/// cycles.full_multigrid.

/// Whether an iteration reports that its true residual is held up by rounding
/// (FluxIteration::at_rounding_floor); iterations without that test never do.
template <typename Iteration>
bool at_rounding_floor(Iteration& iteration) {
  if constexpr (requires { iteration.at_rounding_floor(); })
    return iteration.at_rounding_floor();
  else
    return false;
}

template <typename T, typename C>
SolveResult cycle_loop(const Case& c, Backend<T>& backend, output::RunOutput& out,
                       const SolveOptions& options, C& cycles, Buffer<T>& cur, Buffer<T>& next,
                       std::int64_t done, double earlier_seconds, const Layout& L,
                       const parallel::Decomposition& d, const Box& box, index_t updated_cells,
                       SolveResult r, bool fmg_start,
                       const std::function<double(const Buffer<T>&)>& richardson = {}) {
  const parallel::Comm& comm = options.comm;
  const Subdomain& sub = d.sub;
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
    if (done == 0 && fmg_start)
      fmg = backend.record([&] { cycles.full_multigrid(cur, next); });
  }
  // Cycles that cannot be recorded whole (float cycles in a double solve) prepare their start.
  if constexpr (requires { cycles.prepare_start(cur, next); })
    if (done == 0 && fmg_start) cycles.prepare_start(cur, next);
  RunClock::get().mark("operator and fields ready");
  FieldWriter<T> writer(c, backend, L, out, comm, d);
  RunClock::get().mark("writer ready");
  Progress progress(options.live_progress, c.solve.max_iterations, updated_cells, done, false);
  const output::GridMeta grid = grid_meta(c);
  StagnationWatch stagnation(c, true);
  StallWatch stall;
  KrylovStall krylov_stall;
  const StopRequest stop_request(options.stop, options.max_wall_seconds);
  ToleranceStop tolerance(c, r.first_norm);
  const DivergenceStop divergence(c);
  Diagnostics diag;
  const double residual_scale = cycles.residual_scale();
  std::int64_t last_snapshot = -1;
  std::int64_t it = done;
  // Signals abandon a long cycle part-way (prompt_stop.hpp); short ones stop at their end.
  // Why the ranks stop (StopRequest's code): this rank's, made the largest over the ranks by
  // the probe's reduction, so that a cycle needs one collective, not two.
  PromptStop<T> prompt(backend, L.size, updated_cells,
                       [&] { return stop_request.code() != StopRequest::kNone; },
                       !comm.several());
  bool abandoned = false;
  // solve.tolerance: discretization (discretization_stop.hpp): `richardson` estimates the
  // discretization error of u at the first check and again whenever the stop is near, so that
  // the stop is always decided on an estimate from the u it stops with.
  const bool estimate = c.solve.tolerance_discretization;
  DiscretizationStop discretization;
  const auto start = std::chrono::steady_clock::now();
  RunClock::get().loop_started();
  const auto state_now = [&] {
    return LoopState{it, static_cast<double>(it), r.first_norm,
                     earlier_seconds + seconds_since(start), backend.name(), r.kernel};
  };
  const auto norm_of = [&](const SweepStats& s) {
    return c.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  };
  // Over several ranks every operation is timed per level (level_split_summary.hpp).
  constexpr bool timed_levels = requires { cycles.time_levels(); };
  if constexpr (timed_levels)
    if (comm.several()) cycles.time_levels();
  double reduce_seconds = 0;
  int agreed_stop = 0;
  // The probe's statistics over every rank, merged in rank order (deterministic).
  const auto probe = [&] {
    const SweepStats mine = cycles.probe(cur, next);
    agreed_stop = stop_request.code();
    return scale_norms(
        parallel::timed_reduce_stats(comm, mine, agreed_stop, reduce_seconds), residual_scale);
  };
  const auto diagnose = [&](const T* before) {
    return parallel::reduce_diagnostics(comm, backend.diagnose(before, cur.data(), L, box), sub);
  };
  // The full diagnostics (solve.diagnostics) are a pass over u and its state before the cycle,
  // with reductions: on the CPU a third of a 2049^2 V-cycle's time. Every cycle's norms come
  // with its probe; the diagnostics run at every check_every-th cycle, as the Jacobi loop's
  // checks, and on the row where the run ends for good: where that is known beforehand
  // (converged, diverging), else once the loop has stopped (stalled, the discretization error
  // reached). A run that stops to be resumed (max_iterations, a signal, the time limit) leaves
  // its last row as it is, so that the resumed run's rows are those of a run never stopped.
  const auto diagnose_due = [&](double norm) {
    return it % c.solve.check_every == 0 || tolerance.reached(norm) ||
           !(norm <= divergence.limit(r.first_norm));
  };

  // A fresh solve by full multigrid: the initial residual (the tolerance's reference), then
  // the FMG cycle, iteration 1.
  if (it == 0 && fmg_start) {
    const SweepStats s0 = probe();
    r.first_norm = norm_of(s0);
    tolerance.set_reference(r.first_norm);
    // A run interrupted during its first cycle resumes at cycle 0, its initial row restored.
    if (!options.resume) out.add_history(history_row(0, 0.0, s0, nullptr, seconds_since(start)));
    progress.check(0, r.first_norm, tolerance.target(), "initial residual");
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
      tolerance.set_reference(norm);
    }
    const bool resumed_row = it == done && options.resume;  // already in the restored history
    if (!resumed_row) {
      const Diagnostics* diagnosed = nullptr;
      if (c.solve.diagnostics && it > 0 && diagnose_due(norm)) {
        diag = diagnose(prev.data());
        diagnosed = &diag;
      }
      output::HistoryRow row = history_row(it, static_cast<double>(it), stats, diagnosed,
                                           earlier_seconds + seconds_since(start));
      row.factor = norm_factor(row, out.history(), c.solve.norm);
      out.add_history(row);
      std::string detail = loop_detail::check_detail(row);
      if (estimate && it > 0) {
        const auto in_norm = [&](const Diagnostics& g) {
          return c.solve.norm == NormKind::L2 ? g.l2 : g.linf;
        };
        // The change of u over the cycle: the diagnostics' update norms when they ran, else
        // one pass over the two fields.
        const double change =
            diagnosed ? in_norm(diag)
                      : difference_norm(backend.shared_node_difference(
                                            {cur.data(), L, prev.data(), L, box, 1}),
                                        c.solve.norm == NormKind::L2);
        discretization.cycle_change(change, row.factor);
        if (richardson && (!discretization.has_discretization() || discretization.reached())) {
          const auto estimated = std::chrono::steady_clock::now();
          discretization.set_discretization(richardson(cur));
          spdlog::debug("iteration {}: Richardson's estimate {:.3e} in {:.4f} s", it,
                        discretization.discretization(), seconds_since(estimated));
        }
        detail += loop_detail::estimate_detail(discretization);
      }
      progress.check(it, norm, tolerance.target(), detail);
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
      if (divergence.diverged(norm, r.first_norm, stats, diagnosed)) {
        const T* before = keep_previous ? prev.data() : cur.data();
        if (!diagnosed) diag = diagnose(before);
        r.divergence = locate_divergence(it, static_cast<double>(it), norm,
                                         divergence.limit(r.first_norm), diag, grid);
        r.status = SolveStatus::Diverged;
        break;
      }
      if (tolerance.reached(norm)) {
        r.status = SolveStatus::Converged;
        break;
      }
      if (estimate && discretization.reached()) {
        spdlog::info(
            "converged to the discretization error: the estimated algebraic error {:.3e} is at "
            "most {:g} x the estimated discretization error {:.3e} ({} norm)",
            discretization.algebraic(), DiscretizationStop::kFraction,
            discretization.discretization(), c.solve.norm == NormKind::L2 ? "l2" : "linf");
        r.status = SolveStatus::Converged;
        break;
      }
      // Conjugate gradients (not monotone): the rule on the best residual (KrylovStall).
      if (!cycles.monotone() && it > 0 &&
          krylov_stall.stalled(norm, [&] { return at_rounding_floor(cycles); })) {
        r.status = SolveStatus::Stalled;
        r.stop_message = describe_krylov_stall(c, it, norm, krylov_stall, tolerance.target());
        break;
      }
      if (it > 0 && cycles.monotone() && stall.stalled(row.factor)) {
        r.status = SolveStatus::Stalled;
        r.stop_message =
            describe_stall(c, it, norm, tolerance.target(), std::max(std::abs(row.min), std::abs(row.max)));
        break;
      }
      if (it > 0) stagnation.check(out.history(), tolerance.target());
      if (it > 0 && c.output.every > 0 && it % c.output.every == 0) {
        writer.snapshot(cur, keep_previous ? prev : cur, it, static_cast<double>(it));
        writer.flush_history();
        last_snapshot = it;
      }
      if (it > 0 && c.checkpoint.every > 0 && it % c.checkpoint.every == 0)
        writer.checkpoint(cur, state_now());
    } else {
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
    }
    // A signal (or the clock) reaches the ranks at different moments: they stop together, as
    // agreed with this cycle's norms (a signal outranks the time limit); one rank looks now.
    if (const int why = comm.several() ? agreed_stop : stop_request.code();
        why != StopRequest::kNone) {
      r.status = StopRequest::status(why);
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
    r.status = stop_request.signalled() ? SolveStatus::Interrupted : SolveStatus::TimeLimit;
    spdlog::info("cycle {} abandoned part-way on the {}: its start restored, the checkpoint "
                 "holds cycle {}",
                 it + 1, r.status == SolveStatus::Interrupted ? "signal" : "wall-time limit", it);
  }
  // The last cycle's row diagnosed where the run ended for good after the row (diagnose_due):
  // prev still holds the state before that cycle.
  const bool resumable = r.status == SolveStatus::Interrupted ||
                         r.status == SolveStatus::TimeLimit ||
                         r.status == SolveStatus::MaxIterations;
  if (c.solve.diagnostics && !abandoned && !resumable && it > done && !out.history().empty() &&
      out.history().back().iteration == it && !out.history().back().diagnosed) {
    diag = diagnose(prev.data());
    output::HistoryRow row = out.history().back();
    add_diagnostics(row, diag);
    out.replace_last_history(row);
  }
  backend.synchronize();
  progress.finish();
  const double session = seconds_since(start);
  RunClock::get().loop_ended();
  r.iterations = it;
  r.time = static_cast<double>(it);
  r.seconds = earlier_seconds + session;
  r.cells_per_second = session > 0 ? static_cast<double>(updated_cells) *
                                         static_cast<double>(it - done) / session
                                   : 0;
  if constexpr (timed_levels)
    if (comm.several())
      r.parallel = level_split_summary(comm, d, backend.host_memory(), session, reduce_seconds,
                                       cycles.level_seconds(), cycles.levels());
  if (estimate && discretization.has_discretization())
    r.error_estimate = output::ErrorEstimate{discretization.discretization(),
                                             discretization.algebraic(),
                                             c.solve.norm == NormKind::L2 ? "l2" : "linf",
                                             r.coarse_seconds};
  if (r.status == SolveStatus::Interrupted || r.status == SolveStatus::TimeLimit)
    writer.checkpoint(cur, state_now());
  else if (checkpoints_steady_end(c, r.status) && !options.final_state &&
           writer.last_checkpoint() != it)
    writer.checkpoint(cur, state_now());  // a sub-solve (final_state) writes nothing
  const Buffer<T>& before = keep_previous ? prev : cur;
  if (r.divergence) {
    writer.final_snapshot(cur, before, it, static_cast<double>(it),
                          {{"status", "diverged"},
                           {"divergence", describe_divergence(*r.divergence, c.grid.dims, false)}});
    r.divergence->snapshot = out.snapshot_file(it);
  } else if (last_snapshot != it && !options.final_state) {
    writer.final_snapshot(cur, before, it, static_cast<double>(it));
  }
  writer.flush_history();
  writer.finish();
  if (options.final_state) options.final_state(&cur, L);
  return r;
}


}  // namespace fdsolve::multigrid
