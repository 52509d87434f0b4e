// Implicit heat steps as iterations of the solve loop (loop/solve_loop.hpp), by the one stepper
// (ImplicitStep) over either operator form (step_operator.hpp): per step the stepper builds the
// right-hand side and runs its cycles to the step's tolerance; the step's row of history is its
// final residual and its cycles, and a step diverges when its cycles make the residual grow (the
// schemes are stable for any dt, so only the solve can blow up).
#pragma once

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

#include "earlier_steps.hpp"
#include "implicit_step.hpp"
#include "loop/loop_support.hpp"
#include "loop/solve_loop.hpp"
#include "loop/stability.hpp"
#include "loop/start_state.hpp"
#include "multigrid/cycle_work.hpp"
#include "multigrid/level_split_summary.hpp"
#include "multigrid/multigrid_solve.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/problem.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

/// "12 cycles, residual 1.2e-9 from 3.4e-3  u in [0, 1]": a step's progress detail.
std::string step_detail(const StepSolve& s, double norm, const output::HistoryRow& row);

/// One step of an implicit scheme by the stepper, with the fields of the earlier steps it
/// extrapolates from.
template <typename T>
class ImplicitIteration final : public LoopIteration<T> {
 public:
  /// `last_cycles`: the cycles of the step before the first (a resumed run's last row), from
  /// which the unchecked cycles of the next are predicted where `predict` is set.
  ImplicitIteration(SolveLoop<T>& loop, const Case& c, Backend<T>& backend,
                    const parallel::Comm& comm, ImplicitStep<T>& stepper, EarlierSteps<T>& earlier,
                    Buffer<T>& cur, const Layout& L, const Box& box,
                    const parallel::Decomposition& d,
                    const std::vector<multigrid::LevelGeometry>& levels, const TimePlan& plan,
                    bool predict, std::int64_t last_cycles)
      : loop_(loop),
        c_(c),
        backend_(backend),
        comm_(comm),
        stepper_(stepper),
        earlier_(earlier),
        cur_(cur),
        L_(L),
        box_(box),
        d_(d),
        levels_(levels),
        plan_(plan),
        predict_(predict),
        last_cycles_(last_cycles) {}

  Advance open() override {
    // Over several ranks every operation of the cycles is timed per level, where they can be.
    if (comm_.several()) stepper_.time_levels();
    return {};
  }

  int agreed_stop(std::int64_t /*it*/) override {
    const int mine = loop_.rules().request.code();
    return comm_.several() ? static_cast<int>(comm_.max(mine)) : mine;
  }

  Advance advance(std::int64_t it) override {
    const std::int64_t step = it + 1;
    StepPlan step_plan;
    step_plan.backward_euler = c_.time.scheme == TimeScheme::Implicit || plan_.startup_step(step);
    stepper_.set_step(plan_.step_dt(step), step_plan.backward_euler);
    earlier_.prepare(step_plan, step, plan_, cur_, stepper_);
    // Cycles run before the host looks at a residual (the GPU then does not wait on each): one
    // fewer than the last step took, which keeps the step the per-cycle test makes while the
    // count does not fall by two at once.
    if (predict_)
      step_plan.unchecked_cycles = static_cast<int>(std::max<std::int64_t>(0, last_cycles_ - 1));
    s_ = stepper_.step(plan_.time_after(it), plan_.time_after(step), step_plan);
    last_cycles_ = s_.cycles;
    surplus_ += s_.surplus;
    total_cycles_ += s_.cycles;
    Advance a = Advance::checked(1, s_.residual);
    a.first_norm = s_.first_norm;
    a.target = s_.target;
    // A step diverges when its values are not finite or its cycles made the residual grow by
    // divergence_factor over that of the warm start.
    a.divergence_reference = std::max(s_.first_norm, s_.target);
    // The factor column of a step: its residual's reduction by the cycles (empty: no residual).
    a.own_factor = true;
    if (s_.first_norm > 0) a.factor = norm(s_.residual) / s_.first_norm;
    a.cycles = s_.cycles;
    return a;
  }

  double time_after(std::int64_t it) const override { return plan_.time_after(it); }
  const Buffer<T>& previous() const override { return earlier_.any() ? earlier_.last() : cur_; }

  // Diagnostics (a pass over u and u before the step) on the steps the explicit loop checks.
  const Diagnostics* diagnose_check(std::int64_t it, double /*norm*/) override {
    if (!loop_.check_due(it) || !c_.solve.diagnostics) return nullptr;
    diag_ = diagnose(earlier_.last().data());
    return &diag_;
  }

  std::string check_detail(std::int64_t /*it*/, const output::HistoryRow& row,
                           const Diagnostics* /*diagnosed*/) override {
    return step_detail(s_, norm(s_.residual), row);
  }

  const Diagnostics& divergence_diagnostics(const Diagnostics* diagnosed) override {
    if (!diagnosed) diag_ = diagnose(earlier_.any() ? earlier_.last().data() : cur_.data());
    return diag_;
  }

  void checked(std::int64_t it, double norm) override {
    if (!s_.converged && short_steps_++ == 0)
      spdlog::warn(
          "step {} stopped at residual {:.3e}, above its target {:.3e}, after {} cycles "
          "({}); later such steps are counted at the end",
          it, norm, s_.target, s_.cycles,
          s_.stalled ? "the residual stopped falling: the rounding level of the precision"
                     : "solve.max_iterations");
  }

  std::vector<const Buffer<T>*> checkpoint_fields() const override {
    return earlier_.checkpoint_fields();
  }

  void report(std::int64_t steps) override {
    if (short_steps_ > 0)
      spdlog::warn("{} of {} steps stopped above their residual target", short_steps_, steps);
    spdlog::info("{} steps, {} cycles ({:.2f} per step{})", steps, total_cycles_,
                 steps > 0 ? static_cast<double>(total_cycles_) / static_cast<double>(steps) : 0.0,
                 surplus_ > 0
                     ? fmt::format("; {} of them run unchecked past the step's target", surplus_)
                     : std::string());
  }

  std::optional<output::ParallelSummary> parallel_summary(double session) override {
    if (!comm_.several()) return std::nullopt;
    if (const std::vector<output::LevelSeconds>* seconds = stepper_.level_seconds())
      return multigrid::level_split_summary(comm_, d_, backend_.host_memory(), session,
                                            stepper_.reduce_seconds(), *seconds, levels_);
    return std::nullopt;
  }

 private:
  double norm(const SweepStats& s) const {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  }
  Diagnostics diagnose(const T* before) {
    return parallel::reduce_diagnostics(comm_, backend_.diagnose(before, cur_.data(), L_, box_),
                                        d_.sub);
  }

  SolveLoop<T>& loop_;
  const Case& c_;
  Backend<T>& backend_;
  const parallel::Comm& comm_;
  ImplicitStep<T>& stepper_;
  EarlierSteps<T>& earlier_;
  Buffer<T>& cur_;
  const Layout& L_;
  const Box& box_;
  const parallel::Decomposition& d_;
  const std::vector<multigrid::LevelGeometry>& levels_;
  const TimePlan& plan_;
  bool predict_;
  std::int64_t last_cycles_;
  StepSolve s_;
  Diagnostics diag_;
  std::int64_t short_steps_ = 0, surplus_ = 0, total_cycles_ = 0;
};

/// Steps the heat problem `p` to time.end. `make_operator(fields)` builds the stepper's
/// operator side (step_operator.hpp) over the loop's fields; `kernel` names the sweep in
/// summary.json; `method` the scheme in the log.
template <typename T, typename MakeOperator>
SolveResult solve_implicit_steps(const problem::Problem& p, Backend<T>& backend,
                                 output::RunOutput& out, const SolveOptions& options,
                                 const std::string& kernel, const std::string& method,
                                 MakeOperator make_operator) {
  const Case& c = p.c;
  const parallel::Comm& comm = options.comm;
  // The stepper's levels split over the ranks (the constant stencil), or the fine grid's split
  // alone with the cycles on rank 0 (the flux form): the problem's split.
  const auto& levels = p.levels;
  const parallel::Decomposition& d = p.decomposition;
  const Subdomain& sub = d.sub;
  const Layout& L = p.layout;
  const Box& box = p.box;
  const TimePlan& plan = *p.time;
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
  const StepFields<T> fields{cur, next, boundaries, halo, comm, sub, L, box};
  ImplicitStep<T> stepper(c, backend, fields, make_operator(fields));
  spdlog::info("{}: {} levels", method, levels.size());
  if (plan.startup > 0)
    spdlog::info("Rannacher start: {} backward-Euler steps of dt/2 = {:g} before Crank-Nicolson",
                 plan.startup, 0.5 * plan.dt);
  // The earlier steps' fields: three for Crank-Nicolson's extrapolation, one for backward
  // Euler's, and one for the diagnostics and the `update` field (earlier_steps.hpp).
  const int kept = !c.time.extrapolate ? 0 : c.time.scheme == TimeScheme::CrankNicolson ? 3 : 1;
  EarlierSteps<T> earlier(backend, L, kept, needs_previous_state(c));
  if (options.resume) earlier.restore(*options.resume, cur);
  // Unchecked cycles are predicted from the last step's count, seeded from the history on a
  // resume, so that the resumed run is the uninterrupted one. The CPU has no launch latency
  // to hide.
  using Checks = SolveOptions::CycleChecks;
  const bool predict = options.cycle_checks == Checks::Predicted ||
                       (options.cycle_checks == Checks::Auto && !backend.host_memory());
  std::int64_t last_cycles = 0;
  if (predict && options.resume && !options.resume->history.empty())
    last_cycles = std::max<std::int64_t>(0, options.resume->history.back().cycles);

  LoopPlan loop_plan;
  loop_plan.last = plan.steps;
  loop_plan.heat = true;
  loop_plan.updated_cells = p.updated_cells;
  loop_plan.initial_snapshot = plan.timed_output;
  loop_plan.output_steps = plan.output_steps;
  SolveLoop<T> loop(c, backend, out, options, L, d, cur, done, earlier_seconds, r, loop_plan);
  ImplicitIteration<T> iteration(loop, c, backend, comm, stepper, earlier, cur, L, box, d, levels,
                                 plan, predict, last_cycles);
  return loop.run(iteration);
}

}  // namespace fdsolve::heat
