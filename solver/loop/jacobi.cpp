// The time-stepping Jacobi loop on any backend. Only the statistics of checked sweeps cross
// to the host during a solve; fields cross only for snapshots and checkpoints.
#include "jacobi.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "blocked_steps.hpp"
#include "end_checkpoint.hpp"
#include "jacobi_schedule.hpp"
#include "multigrid/hierarchy.hpp"
#include "operator/flux_levels.hpp"
#include "field_io.hpp"
#include "loop/start_state.hpp"
#include "loop_support.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "parallel/split_sweep.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/field_programs.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"
#include "problem/weights.hpp"
#include "progress.hpp"
#include "run_checks.hpp"
#include "stability.hpp"
#include "stop_rules.hpp"
#include "sweep_block.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve {
namespace {

using jacobi_detail::Schedule;
using jacobi_detail::SourceField;
using jacobi_detail::make_schedule;

/// The diagnostics of a check for the log line: range and mean of u, |update| percentiles.
std::string check_detail(const output::HistoryRow& row) {
  if (!row.diagnosed) return fmt::format("u in [{:.4g}, {:.4g}] (updated nodes)", row.min, row.max);
  std::string text =
      fmt::format("u in [{:.4g}, {:.4g}] mean {:.4g}  |u'-u| p50 {:.2e} p90 {:.2e} p99 {:.2e}",
                  row.min, row.max, row.mean, row.p50, row.p90, row.p99);
  if (row.nonfinite > 0) text += fmt::format("  {} non-finite", row.nonfinite);
  return text;
}

}  // namespace

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged:
      return "converged";
    case SolveStatus::Completed:
      return "completed";
    case SolveStatus::Diverged:
      return "diverged";
    case SolveStatus::Interrupted:
      return "interrupted";
    case SolveStatus::Stalled:
      return "stalled";
    case SolveStatus::TimeLimit:
      return "time_limit";
    default:
      return "max_iterations";
  }
}

template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options, const op::Medium* medium) {
  RunClock::get().mark("Jacobi set-up");
  const KernelId kernel = choose_kernel(c, backend);
  RunClock::get().mark("kernel chosen");
  const parallel::Comm& comm = options.comm;
  const parallel::Decomposition d =
      options.decomposition ? *options.decomposition : parallel::decompose(c, {1, 1, 1}, 0);
  const Subdomain& sub = d.sub;
  const Layout L = field_layout(c, sizeof(T), sub);
  const Box box = update_box(c, sub);
  const index_t updated_cells = update_box(c).cells();  // over all ranks
  const Schedule sched = make_schedule(c, options.allow_unstable_dt);
  // The residual criterion: a Jacobi update is d = s (f - A u), s the source scale, so the
  // residual of the state a sweep starts from is its update over s.
  // With the flux operator (a varying coefficient, held nodes) the update is the residual over
  // each node's own diagonal: no one scale turns its norms into the residual's.
  const bool flux = medium && medium->needs_flux();
  if (flux && c.solve.criterion == Criterion::Residual)
    spdlog::warn("solve.criterion: residual: Jacobi with a varying coefficient or held nodes "
                 "measures the update u' - u (multigrid measures the residual)");
  const double norm_scale =
      c.solve.criterion == Criterion::Residual && !flux ? 1.0 / sched.step.source_scale : 1.0;

  SolveResult r;
  r.kernel = backend.kernels(c.grid.dims)[kernel.index];
  r.dt = sched.plan.dt;
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  RunClock::get().mark("initial state ready");
  if (const Checkpoint* k = options.resume)
    spdlog::info("resuming from iteration {} (time {})", done, k->state.time);

  SourceField<T> source(c, backend, L, sub);
  Boundaries<T> boundaries(c, backend, L, sub);
  RunClock::get().mark("source and boundaries ready");
  // Edge and corner ghosts are read by the 19- and 27-point stencils only.
  HaloExchange<T> halo(L, backend, comm, d, sched.step.weights.points > 7);
  halo.set_ghost_rules(boundaries.ghost_rules());
  // The run's log says which exchange path and whether it overlaps (run_command).
  SplitSweep<T> step(backend, halo, kernel, box, c.parallel.overlap);
  RunClock::get().mark("halo and sweep ready");
  double reduce_seconds = 0;  // collectives: statistics over the ranks, the stop agreement
  const auto reduced = [&](auto&& reduce) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = reduce();
    reduce_seconds += seconds_since(t0);
    return result;
  };
  RunClock::get().mark("operator and fields ready");
  FieldWriter<T> writer(c, backend, L, out, comm, d);
  RunClock::get().mark("writer ready");
  Progress progress(options.live_progress, sched.total, updated_cells, done, sched.heat);
  SweepArgs<T> args;
  args.layout = L;
  args.box = box;
  // The flux operator's face arrays: Jacobi u' = u + r / D, or the explicit heat step
  // u' = u + dt r with r = q - A u (the diffusivity in the faces).
  std::array<Buffer<T>, 3> faces;
  double f_constant = 0;
  if (flux) {
    const op::FluxLevel<T> level = op::fine_flux_level<T>(multigrid::fine_level(c), *medium, sub);
    for (int a = 0; a < 3; ++a) {
      faces[a] = backend.allocate(L.size);
      backend.upload(faces[a], level.face[a].data(), L.size);
      args.flux.face[a] = faces[a].data();
      args.flux.c[a] = a < c.grid.dims ? 1.0 / (c.grid.spacing(a) * c.grid.spacing(a)) : 0.0;
    }
    args.flux.neighbour = op::neighbour_couplings(multigrid::fine_level(c), 1.0);
    args.flux.relax = sched.heat ? 0.0 : 1.0;
    const bool sourced =
        c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat;
    if (sourced && c.problem.source.is_constant()) f_constant = c.problem.source.constant;
    spdlog::info("variable-coefficient operator (flux form): {} held nodes", medium->held_count);
  }
  // The weights and source of the sweeps that end at iteration `it`.
  const auto set_step = [&](std::int64_t it_after, double t) {
    const EquationWeights& eq = sched.weights(it_after);
    args.weights = eq.weights;
    if (!flux) {
      args.source_field = source.at(t, eq.source_scale);
      return;
    }
    args.weights.source = f_constant;
    args.flux.step = sched.heat ? eq.source_scale : 0.0;  // dt of heat steps
    args.source_field = source.at(t, 1.0);
  };
  const output::GridMeta grid = grid_meta(c);
  StagnationWatch stagnation(c);
  const StopRequest stop_request(options.stop, options.max_wall_seconds);
  ToleranceStop tolerance(c, r.first_norm);
  const DivergenceStop divergence(c);
  Diagnostics diag;  // of the latest check, reused: it holds two 540-bin arrays
  std::int64_t last_snapshot = -1;
  std::int64_t it = done;
  const auto start = std::chrono::steady_clock::now();
  RunClock::get().loop_started();
  const auto state_now = [&] {
    return LoopState{it,
                     sched.time_after(it),
                     r.first_norm,
                     earlier_seconds + seconds_since(start),
                     backend.name(),
                     r.kernel};
  };

  // Between checks the sweeps need the host only for inputs that change in time and for the
  // halo exchange of several ranks; otherwise they go to the backend as recorded blocks.
  const bool blocks = options.record_sweeps && !comm.several() && !boundaries.time_dependent() &&
                      !c.problem.source.uses_time;
  SweepBlock<T> block(backend, kernel, [&boundaries](Buffer<T>& f) { boundaries.fill_ghosts(f); });
  const LoopMarks marks{sched.total, c.solve.check_every, c.checkpoint.every, c.output.every};
  // Temporal blocking inside those blocks only when no ghosts are refilled between sweeps
  // (Neumann, periodic faces): the blocked kernels read the halo as it is at the block's start.
  if (const std::optional<KernelId> steps =
          blocks && !boundaries.fills_halo() && !flux ? choose_blocked_kernel(c, backend)
                                                      : std::nullopt) {
    block.use_blocked(*steps);
    spdlog::info("temporal blocking: {} between checks", c.tuning.blocked_kernel);
  } else if (!c.tuning.blocked_kernel.empty()) {
    spdlog::info(
        "temporal blocking: {} not used (ghost fills, ranks or time-dependent inputs change the "
        "halo between sweeps)",
        c.tuning.blocked_kernel);
  }

  // 3D Neumann or periodic x faces: the sweeps write those ghosts as they update the rows
  // (bit-identical to the fill's x pass, without its scattered sector per row).
  if (options.sweeps_write_x_ghosts && c.grid.dims == 3 && !comm.several() && !flux)
    args.x_ghosts = boundaries.sweeps_write_x_ghosts(cur, next);

  while (it < sched.total) {
    // A signal reaches the ranks at different moments: they stop together, agreeing (an
    // integer maximum: exact) at the same iterations on every rank, every 32 sweeps or at
    // each check if those come sooner: an all-reduce per sweep was the ranks' largest
    // collective cost on CPU ranks, and 32 sweeps keep the stop prompt.
    // The wall-time limit stops them the same way (a signal outranks it).
    const int mine = stop_request.code();
    const bool agree = it % std::min<std::int64_t>(c.solve.check_every, 32) == 0;
    const long long why =
        comm.several() ? (agree ? reduced([&] { return comm.max(mine); }) : 0) : mine;
    if (why != StopRequest::kNone) {
      r.status = StopRequest::status(why);
      break;
    }
    if (const std::int64_t n = blocks ? plain_run_length(it, marks) : 0; n >= 2) {
      set_step(it + 1, sched.time_after(it));  // the same for every sweep before total
      it += block.run(cur, next, args, n);
      continue;
    }
    if (sched.heat && before_last_heat_step(it, sched.total) && writer.last_checkpoint() != it)
      writer.checkpoint(cur, state_now());  // what a longer run continues from (end_checkpoint.hpp)
    ++it;
    const double t = sched.time_after(it - 1);
    args.in = cur.data();
    args.out = next.data();
    try {
      // The physical faces' ghosts; the step below exchanges the faces between ranks.
      boundaries.before_sweep(cur, next, t, sched.time_after(it));
      set_step(it, t);
    } catch (const NonFiniteInput& e) {
      // Over several ranks the others may be waiting in the exchange: end the job instead.
      if (comm.several()) throw;
      // A time-dependent input turned NaN or Inf: the run stops as diverged with the state of
      // the last complete iteration, which is still finite.
      r.divergence = output::Divergence{};
      r.divergence->iteration = it;
      r.divergence->time = t;
      r.divergence->reason = "input";
      r.divergence->input = e.what();
      r.status = SolveStatus::Diverged;
      --it;
      break;
    }
    const bool checkpoint_due = c.checkpoint.every > 0 && it % c.checkpoint.every == 0;
    const bool check =
        it == 1 || it % c.solve.check_every == 0 || it == sched.total || checkpoint_due;
    SweepStats stats;
    if (check) {
      const SweepStats mine = step.sweep_with_stats(cur, args);
      stats = scale_norms(reduced([&] { return parallel::reduce_stats(comm, mine); }), norm_scale);
      // Only check iterations pay for the diagnostics: args.in holds u before, args.out after.
      if (c.solve.diagnostics) {
        const Diagnostics local = backend.diagnose(args.in, args.out, L, box);
        diag = reduced([&] { return parallel::reduce_diagnostics(comm, local, sub); });
      }
    } else {
      step.sweep(cur, args);
    }
    cur.swap(next);

    if (check) {
      const double norm = c.solve.norm == NormKind::L2 ? stats.l2() : stats.linf();
      if (it == 1) {
        r.first_norm = norm;
        tolerance.set_reference(norm);
      }
      r.norm_l2 = stats.l2();
      r.norm_linf = stats.linf();
      const Diagnostics* diagnosed = c.solve.diagnostics ? &diag : nullptr;
      output::HistoryRow row = history_row(it, sched.time_after(it), stats, diagnosed,
                                           earlier_seconds + seconds_since(start));
      row.factor = norm_factor(row, out.history(), c.solve.norm);
      out.add_history(row);
      progress.check(it, norm, tolerance.target(), check_detail(row));
      if (divergence.diverged(norm, r.first_norm, stats, diagnosed)) {
        // Locate it even when the diagnostics are off: the run ends here anyway. The buffers
        // swapped, but args still points at u before (in) and after (out) the sweep.
        if (!diagnosed)
          diag =
              parallel::reduce_diagnostics(comm, backend.diagnose(args.in, args.out, L, box), sub);
        r.divergence = locate_divergence(it, sched.time_after(it), norm,
                                         divergence.limit(r.first_norm), diag, grid);
        r.status = SolveStatus::Diverged;
        break;  // before the checkpoint step: a diverged state is never checkpointed
      }
      if (!sched.heat && tolerance.reached(norm)) {
        r.status = SolveStatus::Converged;
        break;
      }
      stagnation.check(out.history(), tolerance.target());
    }
    if (c.output.every > 0 && it % c.output.every == 0) {
      writer.snapshot(cur, next, it, sched.time_after(it));
      writer.flush_history();
      last_snapshot = it;
    }
    if (checkpoint_due && !(sched.heat && it == sched.total)) writer.checkpoint(cur, state_now());
  }
  if (it == sched.total && r.status == SolveStatus::MaxIterations && sched.heat)
    r.status = SolveStatus::Completed;
  backend.synchronize();
  progress.finish();
  const double session = seconds_since(start);
  RunClock::get().loop_ended();
  r.iterations = it;
  r.time = sched.time_after(it);
  r.seconds = earlier_seconds + session;
  r.cells_per_second =
      session > 0 ? static_cast<double>(updated_cells) * static_cast<double>(it - done) / session
                  : 0;
  if (comm.several()) {
    const SweepTimes times = step.times();
    r.parallel = parallel::parallel_summary(
        comm, d, step.overlapped(), halo.path(),
        output::LoopTimes{session, times.sweep, times.exchange, reduce_seconds});
  }
  if (r.status == SolveStatus::Interrupted || r.status == SolveStatus::TimeLimit)
    writer.checkpoint(cur, state_now());
  else if (checkpoints_steady_end(c, r.status) && writer.last_checkpoint() != it)
    writer.checkpoint(cur, state_now());
  if (r.divergence) {
    // The last state, marked: /status = diverged and /divergence, the log's description.
    writer.final_snapshot(cur, next, it, sched.time_after(it),
                          {{"status", "diverged"},
                           {"divergence", describe_divergence(*r.divergence, c.grid.dims, sched.heat)}});
    r.divergence->snapshot = out.snapshot_file(it);
  } else if (last_snapshot != it) {
    writer.final_snapshot(cur, next, it, sched.time_after(it));
  }
  writer.flush_history();
  writer.finish();
  return r;
}

template SolveResult solve_jacobi<float>(const Case&, Backend<float>&, output::RunOutput&,
                                         const SolveOptions&, const op::Medium*);
template SolveResult solve_jacobi<double>(const Case&, Backend<double>&, output::RunOutput&,
                                          const SolveOptions&, const op::Medium*);

}  // namespace fdsolve
