// The loop of the implicit heat schemes, shared by the constant-coefficient stepper
// (ImplicitStep) and the variable-coefficient one (FluxImplicitStep): per step the stepper
// builds the right-hand side and runs its cycles to the step's tolerance; the loop writes one
// history row per step (the final residual and the cycles), snapshots, checkpoints and the
// divergence checks, as the explicit loop does.
#pragma once

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "loop/end_checkpoint.hpp"
#include "loop/field_io.hpp"
#include "loop/loop_support.hpp"
#include "loop/progress.hpp"
#include "loop/run_checks.hpp"
#include "loop/stability.hpp"
#include "loop/start_state.hpp"
#include "loop/stop_rules.hpp"
#include "multigrid/cycle_work.hpp"
#include "multigrid/level_split_summary.hpp"
#include "multigrid/multigrid_solve.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "problem/boundary_conditions.hpp"
#include "earlier_steps.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

/// "12 cycles, residual 1.2e-9 from 3.4e-3  u in [0, 1]": a step's progress detail.
std::string step_detail(const StepSolve& s, double norm, const output::HistoryRow& row);

/// Steps the heat case `c` to time.end. `make_stepper(boundaries, halo, cur, next, split)`
/// builds the stepper (set_step, step(t, t_next, plan) -> StepSolve, extrapolate) over the
/// loop's fields;
/// `kernel` names the sweep in summary.json; `method` the scheme in the log.
template <typename T, typename MakeStepper>
SolveResult implicit_loop(const Case& c, Backend<T>& backend, output::RunOutput& out,
                          const SolveOptions& options, const std::string& kernel,
                          const std::string& method, MakeStepper make_stepper) {
  const parallel::Comm& comm = options.comm;
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  const parallel::LevelSplit split = multigrid::split_over_ranks(c, levels, options);
  const parallel::Decomposition& d = split.level[0];
  const Subdomain& sub = d.sub;
  const Layout L = field_layout(c, sizeof(T), sub);
  const Box box = update_box(c, sub);
  const index_t updated_cells = levels[0].box.cells();  // over all ranks
  const TimePlan plan = heat_time_plan(c);
  if (const std::string w = multigrid::cycle_work_warning(c, levels); !w.empty())
    spdlog::warn("{}", w);

  SolveResult r;
  r.kernel = kernel;
  r.dt = plan.dt;
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  if (const Checkpoint* k = options.resume)
    spdlog::info("resuming from step {} (time {})", done, k->state.time);

  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, comm, d);
  if (halo.active()) spdlog::info("halo exchange: {}", halo.path());
  auto stepper = make_stepper(boundaries, halo, cur, next, split);
  spdlog::info("{}: {} levels", method, levels.size());
  if (plan.startup > 0)
    spdlog::info("Rannacher start: {} backward-Euler steps of dt/2 = {:g} before Crank-Nicolson",
                 plan.startup, 0.5 * plan.dt);
  // The earlier steps' fields: three for Crank-Nicolson's extrapolation, one for backward
  // Euler's, and one for the diagnostics and the `update` field (earlier_steps.hpp).
  const int kept = !c.time.extrapolate                          ? 0
                   : c.time.scheme == TimeScheme::CrankNicolson ? 3
                                                                : 1;
  EarlierSteps<T> earlier(backend, L, kept, needs_previous_state(c));
  if (options.resume) earlier.restore(*options.resume, cur);
  const bool keep_previous = earlier.any();
  // Cycles run before the host looks at a residual (the GPU then does not wait on each): one
  // fewer than the last step took, which keeps the step the per-cycle test makes while the
  // count does not fall by two at once. Seeded from the history on a resume, so that the
  // resumed run is the uninterrupted one. The CPU has no launch latency to hide.
  using Checks = SolveOptions::CycleChecks;
  const bool predict = options.cycle_checks == Checks::Predicted ||
                       (options.cycle_checks == Checks::Auto && !backend.host_memory());
  std::int64_t last_cycles = 0, surplus = 0;
  if (predict && options.resume && !options.resume->history.empty())
    last_cycles = std::max<std::int64_t>(0, options.resume->history.back().cycles);
  RunClock::get().mark("operator and fields ready");
  FieldWriter<T> writer(c, backend, L, out, comm, d);
  RunClock::get().mark("writer ready");
  Progress progress(options.live_progress, plan.steps, updated_cells, done, true);
  const output::GridMeta grid = grid_meta(c);
  Diagnostics diag;
  const StopRequest stop_request(options.stop, options.max_wall_seconds);
  const DivergenceStop divergence(c);
  std::int64_t last_snapshot = -1, short_steps = 0, total_cycles = 0;
  std::int64_t it = done;
  const auto start = std::chrono::steady_clock::now();
  RunClock::get().loop_started();
  const auto state_now = [&] {
    return LoopState{it, plan.time_after(it), r.first_norm,
                     earlier_seconds + seconds_since(start), backend.name(), r.kernel};
  };

  // Over several ranks every operation of the cycles is timed per level.
  constexpr bool timed_levels = requires { stepper.time_levels(); };
  if constexpr (timed_levels)
    if (comm.several()) stepper.time_levels();
  const auto diagnose = [&](const T* before) {
    return parallel::reduce_diagnostics(comm, backend.diagnose(before, cur.data(), L, box), sub);
  };
  while (it < plan.steps) {
    // A signal (or the clock) reaches the ranks at different moments: they stop together
    // (integer maximum; a signal outranks the time limit).
    const int mine = stop_request.code();
    if (const long long why = comm.several() ? comm.max(mine) : mine; why != StopRequest::kNone) {
      r.status = StopRequest::status(why);
      break;
    }
    if (before_last_heat_step(it, plan.steps) && writer.last_checkpoint() != it)
      writer.checkpoint(cur, state_now(), earlier.checkpoint_fields());  // end_checkpoint.hpp
    ++it;
    const double t = plan.time_after(it - 1), t_next = plan.time_after(it);
    StepPlan step_plan;
    step_plan.backward_euler = c.time.scheme == TimeScheme::Implicit || plan.startup_step(it);
    stepper.set_step(plan.step_dt(it), step_plan.backward_euler);
    earlier.prepare(step_plan, it, plan, cur, stepper);
    if (predict) step_plan.unchecked_cycles = static_cast<int>(std::max<std::int64_t>(0, last_cycles - 1));
    const StepSolve s = stepper.step(t, t_next, step_plan);
    last_cycles = s.cycles;
    surplus += s.surplus;
    total_cycles += s.cycles;
    const double norm = c.solve.norm == NormKind::L2 ? s.residual.l2() : s.residual.linf();
    if (it == 1) r.first_norm = s.first_norm;
    r.norm_l2 = s.residual.l2();
    r.norm_linf = s.residual.linf();
    // Diagnostics (a pass over u and u before the step) on the steps the explicit loop checks.
    const bool checkpoint_due = c.checkpoint.every > 0 && it % c.checkpoint.every == 0;
    const bool check =
        it == 1 || it % c.solve.check_every == 0 || it == plan.steps || checkpoint_due;
    const Diagnostics* diagnosed = nullptr;
    if (check && c.solve.diagnostics) {
      diag = diagnose(earlier.last().data());
      diagnosed = &diag;
    }
    output::HistoryRow row = history_row(it, t_next, s.residual, diagnosed,
                                         earlier_seconds + seconds_since(start));
    // The factor column of a step: its residual's reduction by the cycles (empty: no residual).
    if (s.first_norm > 0) row.factor = norm / s.first_norm;
    row.cycles = s.cycles;
    out.add_history(row);
    progress.check(it, norm, s.target, step_detail(s, norm, row));
    // A step diverges when its values are not finite or its cycles made the residual grow by
    // divergence_factor over that of the warm start (the implicit schemes are stable for any
    // dt, so only the solve can blow up).
    const double reference = std::max(s.first_norm, s.target);
    if (divergence.diverged(norm, reference, s.residual, diagnosed)) {
      if (!diagnosed) diag = diagnose(keep_previous ? earlier.last().data() : cur.data());
      r.divergence =
          locate_divergence(it, t_next, norm, divergence.limit(reference), diag, grid);
      r.status = SolveStatus::Diverged;
      break;
    }
    if (!s.converged && short_steps++ == 0)
      spdlog::warn("step {} stopped at residual {:.3e}, above its target {:.3e}, after {} cycles "
                   "({}); later such steps are counted at the end",
                   it, norm, s.target, s.cycles,
                   s.stalled ? "the residual stopped falling: the rounding level of the precision"
                             : "solve.max_iterations");
    if (c.output.every > 0 && it % c.output.every == 0) {
      writer.snapshot(cur, keep_previous ? earlier.last() : cur, it, t_next);
      writer.flush_history();
      last_snapshot = it;
    }
    if (checkpoint_due && it != plan.steps)
      writer.checkpoint(cur, state_now(), earlier.checkpoint_fields());
  }
  if (it == plan.steps && r.status == SolveStatus::MaxIterations) r.status = SolveStatus::Completed;
  backend.synchronize();
  progress.finish();
  if (short_steps > 0)
    spdlog::warn("{} of {} steps stopped above their residual target", short_steps, it - done);
  const double session = seconds_since(start);
  RunClock::get().loop_ended();
  spdlog::info("{} steps, {} cycles ({:.2f} per step{})", it - done, total_cycles,
               it > done ? static_cast<double>(total_cycles) / static_cast<double>(it - done) : 0.0,
               surplus > 0 ? fmt::format("; {} of them run unchecked past the step's target",
                                         surplus)
                           : std::string());
  if constexpr (timed_levels)
    if (comm.several())
      r.parallel = multigrid::level_split_summary(comm, d, backend.host_memory(), session,
                                                  stepper.reduce_seconds(),
                                                  stepper.cycles().level_seconds(), levels);
  r.iterations = it;
  r.time = plan.time_after(it);
  r.seconds = earlier_seconds + session;
  r.cells_per_second =
      session > 0 ? static_cast<double>(updated_cells) * static_cast<double>(it - done) / session
                  : 0;
  if (r.status == SolveStatus::Interrupted || r.status == SolveStatus::TimeLimit)
    writer.checkpoint(cur, state_now(), earlier.checkpoint_fields());
  const Buffer<T>& before = keep_previous ? earlier.last() : cur;
  if (r.divergence) {
    writer.final_snapshot(cur, before, it, r.time,
                          {{"status", "diverged"},
                           {"divergence", describe_divergence(*r.divergence, c.grid.dims, true)}});
    r.divergence->snapshot = out.snapshot_file(it);
  } else if (last_snapshot != it) {
    writer.final_snapshot(cur, before, it, r.time);
  }
  writer.flush_history();
  writer.finish();
  return r;
}

}  // namespace fdsolve::heat
