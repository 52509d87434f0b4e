// Jacobi sweeps and explicit heat steps as iterations of the solve loop (solve_loop.hpp), on
// any backend. Only the statistics of checked sweeps cross to the host during a solve; fields
// cross only for snapshots and checkpoints.
#include "jacobi.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include "blocked_steps.hpp"
#include "jacobi_schedule.hpp"
#include "loop/start_state.hpp"
#include "loop_support.hpp"
#include "operator/flux_levels.hpp"
#include "operator/held_values.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "parallel/split_sweep.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/field_programs.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"
#include "problem/weights.hpp"
#include "run_checks.hpp"
#include "solve_loop.hpp"
#include "stability.hpp"
#include "sweep_block.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve {
namespace {

using jacobi_detail::Schedule;
using jacobi_detail::SourceField;
using jacobi_detail::make_schedule;

/// The diagnostics of a check for the log line: range and mean of u, |update| percentiles.
std::string sweep_check_detail(const output::HistoryRow& row) {
  if (!row.diagnosed) return fmt::format("u in [{:.4g}, {:.4g}] (updated nodes)", row.min, row.max);
  std::string text =
      fmt::format("u in [{:.4g}, {:.4g}] mean {:.4g}  |u'-u| p50 {:.2e} p90 {:.2e} p99 {:.2e}",
                  row.min, row.max, row.mean, row.p50, row.p90, row.p99);
  if (row.nonfinite > 0) text += fmt::format("  {} non-finite", row.nonfinite);
  return text;
}


/// One sweep of `args` (a Jacobi update, or an explicit heat step), or a recorded block of
/// them between the loop's checks.
template <typename T>
class JacobiIteration final : public LoopIteration<T> {
 public:
  JacobiIteration(SolveLoop<T>& loop, const Case& c, Backend<T>& backend,
                  const SolveOptions& options, const parallel::Decomposition& d,
                  const Schedule& sched, KernelId kernel, SourceField<T>& source,
                  Boundaries<T>& boundaries, HaloExchange<T>& halo, SplitSweep<T>& sweep,
                  Buffer<T>& cur, Buffer<T>& next, const Layout& L, const Box& box,
                  const problem::Problem& p, double norm_scale)
      : loop_(loop),
        c_(c),
        backend_(backend),
        options_(options),
        comm_(options.comm),
        d_(d),
        sched_(sched),
        source_(source),
        boundaries_(boundaries),
        halo_(halo),
        sweep_(sweep),
        cur_(cur),
        next_(next),
        L_(L),
        box_(box),
        norm_scale_(norm_scale),
        flux_(p.flux()),
        block_(backend, kernel, [&boundaries](Buffer<T>& f) { boundaries.fill_ghosts(f); }),
        marks_{sched.total, c.solve.check_every, c.checkpoint.every, c.output.every,
               sched.plan.output_steps} {
    args_.layout = L;
    args_.box = box;
    // The flux operator's face arrays: Jacobi u' = u + r / D, or the explicit heat step
    // u' = u + (dt / c_i) r with r = q - A u (the diffusivity in the faces).
    if (flux_) {
      const op::Medium& medium = *p.medium;
      op::FluxLevel<T> level = op::fine_flux_level<T>(p.fine, medium, d.sub, backend);
      for (int a = 0; a < 3; ++a) {
        faces_[a] = std::move(level.face[a]);
        args_.flux.face[a] = faces_[a].data();
        args_.flux.c[a] = a < c.grid.dims ? 1.0 / (c.grid.spacing(a) * c.grid.spacing(a)) : 0.0;
      }
      // Robin faces: their term on the diagonal at scale 1 (the faces' c = 1 / h^2).
      if (level.diagonal.size()) {
        diagonal_ = std::move(level.diagonal);
        args_.flux.diagonal = diagonal_.data();
      }
      args_.flux.neighbour = op::neighbour_couplings(p.fine, 1.0);
      if (sched.heat && medium.capacity_varies()) {
        // c u_t = q - A u: each node's step is dt / c_i (kernels/flux_operator.hpp).
        const auto scale = op::inverse_capacity<T>(medium, L, d.sub);
        step_scale_ = backend.allocate(L.size);
        backend.upload(step_scale_, scale.data(), L.size);
        args_.flux.step_scale = step_scale_.data();
      }
      args_.flux.relax = sched.heat ? 0.0 : 1.0;
      f_constant_ = p.source_constant;
      spdlog::info("variable-coefficient operator (flux form): {} held nodes", medium.held_count);
      held_.emplace(c, medium, backend, L, d.sub);
      if (!held_->time_dependent()) held_.reset();
    }
    // Between checks the sweeps need the host only for inputs that change in time and for the
    // halo exchange of several ranks; otherwise they go to the backend as recorded blocks.
    blocks_ = options.record_sweeps && !comm_.several() && !boundaries.time_dependent() &&
              !c.problem.source.uses_time && !robin_ambient_uses_time(c) && !held_;
    // Temporal blocking inside those blocks only when no ghosts are refilled between sweeps
    // (Neumann, periodic faces): the blocked kernels read the halo as it is at the block's
    // start.
    if (const std::optional<KernelId> steps =
            blocks_ && !boundaries.fills_halo() && !flux_ ? choose_blocked_kernel(c, backend)
                                                          : std::nullopt) {
      block_.use_blocked(*steps);
      spdlog::info("temporal blocking: {} between checks", c.tuning.blocked_kernel);
    } else if (!c.tuning.blocked_kernel.empty()) {
      spdlog::info(
          "temporal blocking: {} not used (ghost fills, ranks or time-dependent inputs change "
          "the halo between sweeps)",
          c.tuning.blocked_kernel);
    }
  }

  Advance open() override {
    // 3D Neumann or periodic x faces: the sweeps write those ghosts as they update the rows
    // (bit-identical to the fill's x pass, without its scattered sector per row).
    if (options_.sweeps_write_x_ghosts && c_.grid.dims == 3 && !comm_.several() && !flux_)
      args_.x_ghosts = boundaries_.sweeps_write_x_ghosts(cur_, next_);
    return {};
  }

  int agreed_stop(std::int64_t it) override {
    // The ranks agree (an integer maximum: exact) at the same iterations on every rank, every
    // 32 sweeps or at each check if those come sooner: an all-reduce per sweep was the ranks'
    // largest collective cost on CPU ranks, and 32 sweeps keep the stop prompt.
    const int mine = loop_.rules().request.code();
    if (!comm_.several()) return mine;
    const bool agree = it % std::min<std::int64_t>(c_.solve.check_every, 32) == 0;
    return agree ? static_cast<int>(reduced([&] { return comm_.max(mine); })) : 0;
  }

  std::int64_t advance_block(std::int64_t it) override {
    const std::int64_t n = blocks_ ? plain_run_length(it, marks_) : 0;
    if (n < 2) return 0;
    set_step(it + 1, sched_.time_after(it));  // the same for every sweep short of a mark
    return block_.run(cur_, next_, args_, n);
  }

  Advance advance(std::int64_t it) override {
    const std::int64_t after = it + 1;
    const double t = sched_.time_after(it);
    args_.in = cur_.data();
    args_.out = next_.data();
    try {
      // The physical faces' ghosts; the sweep below exchanges the faces between ranks.
      boundaries_.before_sweep(cur_, next_, t, sched_.time_after(after));
      if (held_) held_->evaluate(sched_.time_after(after));
      set_step(after, t);
    } catch (const NonFiniteInput& e) {
      // Over several ranks the others may be waiting in the exchange: end the job instead.
      if (comm_.several()) throw;
      // A time-dependent input turned NaN or Inf: the run stops as diverged with the state of
      // the last complete iteration.
      input_divergence_ = output::Divergence{};
      input_divergence_.iteration = after;
      input_divergence_.time = t;
      input_divergence_.reason = "input";
      input_divergence_.input = e.what();
      return Advance::of(Advance::Kind::InputDiverged);
    }
    if (!loop_.check_due(after)) {
      sweep_.sweep(cur_, args_);
      if (held_) held_->write(next_);
      cur_.swap(next_);
      return Advance::of(Advance::Kind::Unchecked, 1);
    }
    const SweepStats mine = sweep_.sweep_with_stats(cur_, args_);
    if (held_) held_->write(next_);
    const SweepStats stats =
        scale_norms(reduced([&] { return parallel::reduce_stats(comm_, mine); }), norm_scale_);
    // Only check iterations pay for the diagnostics: args.in holds u before, args.out after.
    if (c_.solve.diagnostics) {
      const Diagnostics local = backend_.diagnose(args_.in, args_.out, L_, box_);
      diag_ = reduced([&] { return parallel::reduce_diagnostics(comm_, local, d_.sub); });
    }
    cur_.swap(next_);
    return Advance::checked(1, stats);
  }

  double time_after(std::int64_t it) const override { return sched_.time_after(it); }
  const Buffer<T>& previous() const override { return next_; }  // swapped: u before the sweep

  const Diagnostics* diagnose_check(std::int64_t /*it*/, double /*norm*/) override {
    return c_.solve.diagnostics ? &diag_ : nullptr;
  }

  std::string check_detail(std::int64_t /*it*/, const output::HistoryRow& row,
                           const Diagnostics* /*diagnosed*/) override {
    return sweep_check_detail(row);
  }

  const Diagnostics& divergence_diagnostics(const Diagnostics* diagnosed) override {
    // The buffers swapped, but args still points at u before (in) and after (out) the sweep.
    if (!diagnosed)
      diag_ = parallel::reduce_diagnostics(comm_, backend_.diagnose(args_.in, args_.out, L_, box_),
                                           d_.sub);
    return diag_;
  }

  output::Divergence input_divergence() const override { return input_divergence_; }

  std::optional<output::ParallelSummary> parallel_summary(double session) override {
    if (!comm_.several()) return std::nullopt;
    const SweepTimes times = sweep_.times();
    return parallel::parallel_summary(
        comm_, d_, sweep_.overlapped(), halo_.path(),
        output::LoopTimes{session, times.sweep, times.exchange, reduce_seconds_});
  }

 private:
  /// A collective, its time counted (the statistics over the ranks, the stop agreement).
  template <typename Reduce>
  auto reduced(Reduce&& reduce) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = reduce();
    reduce_seconds_ += seconds_since(t0);
    return result;
  }

  /// The weights and source of the sweeps that end at iteration `it_after`, starting at `t`.
  void set_step(std::int64_t it_after, double t) {
    const EquationWeights eq = sched_.weights(it_after);
    args_.weights = eq.weights;
    if (!flux_) {
      args_.source_field = source_.at(t, eq.source_scale);
      return;
    }
    args_.weights.source = f_constant_;
    args_.flux.step = sched_.heat ? eq.source_scale : 0.0;  // dt of heat steps
    args_.source_field = source_.at(t, 1.0);
  }

  SolveLoop<T>& loop_;
  const Case& c_;
  Backend<T>& backend_;
  const SolveOptions& options_;
  const parallel::Comm& comm_;
  const parallel::Decomposition& d_;
  const Schedule& sched_;
  SourceField<T>& source_;
  Boundaries<T>& boundaries_;
  HaloExchange<T>& halo_;
  SplitSweep<T>& sweep_;
  Buffer<T>& cur_;
  Buffer<T>& next_;
  const Layout& L_;
  const Box& box_;
  double norm_scale_;
  bool flux_;
  SweepArgs<T> args_;
  std::array<Buffer<T>, 3> faces_;
  Buffer<T> diagonal_;    // the Robin faces' term
  Buffer<T> step_scale_;  // 1 / c_i (a capacity that varies)
  double f_constant_ = 0;
  /// Held values that use t: the sweep copies the held nodes of u at t, then they take their
  /// values at the step's new time (forward Euler reads every value at the old level).
  std::optional<op::HeldValues<T>> held_;
  bool blocks_ = false;
  SweepBlock<T> block_;
  LoopMarks marks_;
  Diagnostics diag_;  // of the latest check, reused: it holds two 540-bin arrays
  output::Divergence input_divergence_;
  double reduce_seconds_ = 0;
};

}  // namespace

template <typename T>
SolveResult solve_jacobi(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options) {
  const Case& c = p.c;
  RunClock::get().mark("Jacobi set-up");
  const KernelId kernel = choose_kernel(c, backend);
  RunClock::get().mark("kernel chosen");
  const parallel::Comm& comm = options.comm;
  const parallel::Decomposition& d = p.decomposition;
  const Subdomain& sub = d.sub;
  const Layout& L = p.layout;
  const Box& box = p.box;
  const Schedule sched = make_schedule(c, p.time);
  // The residual criterion: a Jacobi update is d = s (f - A u), s the source scale, so the
  // residual of the state a sweep starts from is its update over s.
  // With the flux operator (a varying coefficient, held nodes) the update is the residual over
  // each node's own diagonal: no one scale turns its norms into the residual's.
  const bool flux = p.flux();
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
  SplitSweep<T> sweep(backend, halo, kernel, box, c.parallel.overlap);
  RunClock::get().mark("halo and sweep ready");

  LoopPlan plan;
  plan.last = sched.total;
  plan.heat = sched.heat;
  plan.updated_cells = p.updated_cells;  // over all ranks
  plan.initial_snapshot = sched.plan.timed_output;
  plan.output_steps = sched.plan.output_steps;
  SolveLoop<T> loop(c, backend, out, options, L, d, cur, done, earlier_seconds, r, plan);
  JacobiIteration<T> iteration(loop, c, backend, options, d, sched, kernel, source, boundaries,
                               halo, sweep, cur, next, L, box, p, norm_scale);
  return loop.run(iteration);
}

template <typename T>
SolveResult solve_jacobi(const Case& c, Backend<T>& backend, output::RunOutput& out,
                         const SolveOptions& options) {
  const problem::Method sweeps = c.problem.equation == Equation::Heat
                                     ? problem::Method::ExplicitHeat
                                     : problem::Method::Jacobi;
  return solve_jacobi<T>(problem::on_stencil(c, sweeps, sizeof(T), options), backend, out, options);
}

template SolveResult solve_jacobi<float>(const problem::Problem&, Backend<float>&,
                                         output::RunOutput&, const SolveOptions&);
template SolveResult solve_jacobi<double>(const problem::Problem&, Backend<double>&,
                                          output::RunOutput&, const SolveOptions&);
template SolveResult solve_jacobi<float>(const Case&, Backend<float>&, output::RunOutput&,
                                         const SolveOptions&);
template SolveResult solve_jacobi<double>(const Case&, Backend<double>&, output::RunOutput&,
                                          const SolveOptions&);

}  // namespace fdsolve
