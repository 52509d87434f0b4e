// Steady multigrid and conjugate-gradient iterations of the solve loop (loop/solve_loop.hpp),
// for any cycles offering probe / finish_cycle / full_multigrid (StencilHierarchy and
// MixedCycles for the constant stencils, FluxIteration for variable coefficients), with what
// else each offers declared in CycleTraits (cycle_traits.hpp). An iteration is the rest of a
// cycle after its probe, then the probe of the state it reached: the probe's norms decide the
// stops before the state changes again, and its reduction over the ranks carries their stop
// agreement, so that a cycle needs one collective, not two.
#pragma once

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "backend.hpp"
#include "cycle_traits.hpp"
#include "level_split_summary.hpp"
#include "loop/loop_support.hpp"
#include "loop/solve_loop.hpp"
#include "loop/start_state.hpp"
#include "parallel/reduce.hpp"
#include "prompt_stop.hpp"

namespace fdsolve::multigrid {
namespace cycle_detail {

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

}  // namespace cycle_detail

/// What a cycle iteration starts from, made before the loop's writer starts: u (`cur`, with
/// `next` its second buffer), u before the last cycle where the run keeps it (`prev`, else
/// empty), and the recordings of the rest of a cycle and of full multigrid (null where the
/// cycles are not recordable).
template <typename T>
struct CycleStart {
  Buffer<T>& cur;
  Buffer<T>& next;
  Buffer<T> prev;
  std::unique_ptr<Replay> rest_of_cycle;
  std::unique_ptr<Replay> fmg;
  std::int64_t done = 0;
  bool fmg_start = false;  // a fresh solve begins with cycles.full_multigrid
};

template <typename T, typename C>
class CycleIteration final : public LoopIteration<T> {
 public:
  /// `richardson` (solve.tolerance: discretization) estimates the discretization error of u.
  CycleIteration(SolveLoop<T>& loop, const Case& c, Backend<T>& backend,
                 const SolveOptions& options, C& cycles, CycleStart<T>& start, const Layout& L,
                 const parallel::Decomposition& d, const Box& box, index_t updated_cells,
                 const std::function<double(const Buffer<T>&)>& richardson)
      : loop_(loop),
        c_(c),
        backend_(backend),
        comm_(options.comm),
        resume_(options.resume != nullptr),
        cycles_(cycles),
        s_(start),
        L_(L),
        d_(d),
        box_(box),
        keep_previous_(start.prev.size() > 0),
        residual_scale_(cycles.residual_scale()),
        richardson_(richardson),
        prompt_(
            backend, L.size, updated_cells,
            [this] { return loop_.rules().request.code() != StopRequest::kNone; },
            !options.comm.several()) {}

  Advance open() override {
    // Over several ranks every operation is timed per level (level_split_summary.hpp).
    if constexpr (timed_levels)
      if (comm_.several()) cycles_.time_levels();
    // A fresh solve measures its relative tolerance against the first residual or, where u
    // starts elsewhere than 0 (a warm start), against that of the boundary and held data alone
    // where it is larger: a start near the answer does not shrink the target.
    const double data = s_.done == 0 && !starts_from_zero(c_) ? data_residual() : kNaN;
    const auto reference = [&](const SweepStats& start) {
      return std::isnan(data) ? chosen(start) : std::max(chosen(start), data);
    };
    std::int64_t opened = 0;
    // A fresh solve by full multigrid: the initial residual (the tolerance's reference), then
    // the full multigrid cycle, iteration 1; a start that meets the tolerance already (a warm
    // start from the answer) runs no cycle.
    if (s_.done == 0 && s_.fmg_start) {
      const SweepStats start = probe();
      if (ToleranceStop(c_, reference(start)).reached(chosen(start))) {
        Advance a = Advance::checked(0, start);
        a.first_norm = reference(start);
        return a;
      }
      loop_.record_start(start, data);
      const bool whole = prompt_.run(cycles_, s_.cur, [&] {
        if (s_.fmg && !prompt_.next_abandonable())
          s_.fmg->run();
        else
          cycles_.full_multigrid(s_.cur, s_.next);
      });
      if (!whole) return Advance::of(Advance::Kind::Abandoned);
      opened = 1;
    }
    Advance a = Advance::checked(opened, probe());
    if (opened == 0 && !std::isnan(data)) a.first_norm = reference(a.stats);
    // A resumed run's first row is already in the restored history.
    if (opened == 0 && resume_) a.kind = Advance::Kind::Recorded;
    return a;
  }

  int agreed_stop(std::int64_t /*it*/) override {
    // Agreed by the last probe's reduction over the ranks; one rank looks now.
    return comm_.several() ? agreed_stop_ : loop_.rules().request.code();
  }
  bool stop_before_count() const override { return true; }

  Advance advance(std::int64_t /*it*/) override {
    if (keep_previous_) backend_.copy(s_.prev, s_.cur);
    // Signals abandon a long cycle part-way (prompt_stop.hpp); short ones stop at its end.
    const bool whole = prompt_.run(cycles_, s_.cur, [&] {
      if (s_.rest_of_cycle && !prompt_.next_abandonable())
        s_.rest_of_cycle->run();
      else
        cycles_.finish_cycle(s_.cur, s_.next);
    });
    if (!whole) return Advance::of(Advance::Kind::Abandoned);
    return Advance::checked(1, probe());
  }

  double time_after(std::int64_t it) const override { return static_cast<double>(it); }
  const Buffer<T>& previous() const override { return keep_previous_ ? s_.prev : s_.cur; }
  std::int64_t first_check() const override { return 0; }

  // The full diagnostics (solve.diagnostics) are a pass over u and its state before the cycle,
  // with reductions: on the CPU a third of a 2049^2 V-cycle's time. Every cycle's norms come
  // with its probe; the diagnostics run at every check_every-th cycle, as the Jacobi sweeps'
  // checks, and on the row where the run ends for good: where that is known beforehand
  // (converged, diverging), else once the loop has stopped (before_end). A run that stops to
  // be resumed (max_iterations, a signal, the time limit) leaves its last row as it is, so that
  // the resumed run's rows are those of a run never stopped.
  const Diagnostics* diagnose_check(std::int64_t it, double norm) override {
    const StopRules& rules = loop_.rules();
    const bool due = it % c_.solve.check_every == 0 || rules.tolerance.reached(norm) ||
                     !(norm <= rules.divergence.limit(loop_.first_norm()));
    if (!c_.solve.diagnostics || it == 0 || !due) return nullptr;
    diag_ = diagnose(s_.prev.data());
    return &diag_;
  }

  std::string check_detail(std::int64_t it, const output::HistoryRow& row,
                           const Diagnostics* diagnosed) override {
    std::string detail = cycle_detail::check_detail(row);
    std::optional<DiscretizationStop>& discretization = loop_.rules().discretization;
    if (!discretization || it == 0) return detail;
    // solve.tolerance: discretization: the change of u over the cycle, from the diagnostics'
    // update norms when they ran, else one pass over the two fields; Richardson's estimate of
    // the discretization error at the first check and again whenever the stop is near, so that
    // the stop is always decided on an estimate from the u it stops with.
    const bool l2 = c_.solve.norm == NormKind::L2;
    const double change =
        diagnosed
            ? (l2 ? diag_.l2 : diag_.linf)
            : difference_norm(
                  backend_.shared_node_difference({s_.cur.data(), L_, s_.prev.data(), L_, box_, 1}),
                  l2);
    discretization->cycle_change(change, row.factor);
    if (richardson_ && (!discretization->has_discretization() || discretization->reached())) {
      const auto estimated = std::chrono::steady_clock::now();
      discretization->set_discretization(richardson_(s_.cur));
      spdlog::debug("iteration {}: Richardson's estimate {:.3e} in {:.4f} s", it,
                    discretization->discretization(), seconds_since(estimated));
    }
    return detail + cycle_detail::estimate_detail(*discretization);
  }

  const Diagnostics& divergence_diagnostics(const Diagnostics* diagnosed) override {
    if (!diagnosed) diag_ = diagnose(keep_previous_ ? s_.prev.data() : s_.cur.data());
    return diag_;
  }

  /// Whether the iteration reports that its true residual is held up by rounding
  /// (FluxIteration::at_rounding_floor); cycles without that test never do.
  bool at_rounding_floor() override {
    if constexpr (CycleTraits<C>::rounding_floor)
      return cycles_.at_rounding_floor();
    else
      return false;
  }

  void before_end(std::int64_t it, SolveStatus status, bool abandoned) override {
    // The last cycle's row diagnosed where the run ended for good after the row
    // (diagnose_check): prev still holds the state before that cycle.
    const bool resumable = status == SolveStatus::Interrupted || status == SolveStatus::TimeLimit ||
                           status == SolveStatus::MaxIterations;
    output::RunOutput& out = loop_.run_output();
    if (c_.solve.diagnostics && !abandoned && !resumable && it > s_.done &&
        !out.history().empty() && out.history().back().iteration == it &&
        !out.history().back().diagnosed) {
      diag_ = diagnose(s_.prev.data());
      output::HistoryRow row = out.history().back();
      add_diagnostics(row, diag_);
      out.replace_last_history(row);
    }
  }

  std::optional<output::ParallelSummary> parallel_summary(double session) override {
    if constexpr (timed_levels)
      if (comm_.several())
        return level_split_summary(comm_, d_, backend_.host_memory(), session, reduce_seconds_,
                                   cycles_.level_seconds(), cycles_.levels());
    return std::nullopt;
  }

 private:
  static constexpr bool timed_levels = CycleTraits<C>::timed_levels;
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

  /// The probe's statistics over every rank, merged in rank order (deterministic), with this
  /// rank's stop request made the largest over the ranks.
  SweepStats probe() {
    const SweepStats mine = cycles_.probe(s_.cur, s_.next);
    agreed_stop_ = loop_.rules().request.code();
    return scale_norms(parallel::timed_reduce_stats(comm_, mine, agreed_stop_, reduce_seconds_),
                       residual_scale_);
  }

  /// The chosen norm of the residual of the boundary and held data alone (data_field), probed
  /// before the start's own probe, which then leaves the cycles' state as a probe of u does.
  double data_residual() {
    Buffer<T> data = data_field(c_, backend_, L_, d_.sub);
    const SweepStats mine = cycles_.probe(data, s_.next);
    return chosen(scale_norms(parallel::timed_reduce_stats(comm_, mine, agreed_stop_,
                                                           reduce_seconds_),
                              residual_scale_));
  }

  double chosen(const SweepStats& s) const {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  }

  Diagnostics diagnose(const T* before) {
    return parallel::reduce_diagnostics(comm_, backend_.diagnose(before, s_.cur.data(), L_, box_),
                                        d_.sub);
  }

  SolveLoop<T>& loop_;
  const Case& c_;
  Backend<T>& backend_;
  const parallel::Comm& comm_;
  bool resume_;
  C& cycles_;
  CycleStart<T>& s_;
  const Layout& L_;
  const parallel::Decomposition& d_;
  const Box& box_;
  bool keep_previous_;
  double residual_scale_;
  const std::function<double(const Buffer<T>&)>& richardson_;
  PromptStop<T> prompt_;
  Diagnostics diag_;
  int agreed_stop_ = 0;
  double reduce_seconds_ = 0;
};

/// The fine level a steady solve by cycles works on: u = `cur` and its second buffer `next`,
/// where a resumed run takes up (`done` iterations, `earlier_seconds` of loop time), this
/// rank's layout, piece of the grid and updated box, and whether a fresh solve begins with
/// full multigrid.
template <typename T>
struct FineState {
  Buffer<T>& cur;
  Buffer<T>& next;
  std::int64_t done = 0;
  double earlier_seconds = 0;
  const Layout& layout;
  const parallel::Decomposition& decomposition;
  const Box& box;
  index_t updated_cells = 0;  // over every rank
  bool fmg_start = false;
};

/// Solves by iterations of `cycles` on the fine state `f` until the case's stop rules end it;
/// `richardson` (solve.tolerance: discretization) estimates u's discretization error.
template <typename T, typename C>
SolveResult solve_by_cycles(const Case& c, Backend<T>& backend, output::RunOutput& out,
                            const SolveOptions& options, C& cycles, const FineState<T>& f,
                            const SolveResult& r,
                            const std::function<double(const Buffer<T>&)>& richardson = {}) {
  Buffer<T>& cur = f.cur;
  Buffer<T>& next = f.next;
  const std::int64_t done = f.done;
  const bool fmg_start = f.fmg_start;
  const Layout& L = f.layout;
  CycleStart<T> start{cur, next, {}, nullptr, nullptr, done, fmg_start};
  if (needs_previous_state(c)) {
    start.prev = backend.allocate(L.size);
    backend.copy(start.prev, cur);
  }
  // The rest of a cycle after its probe, recorded once (a CUDA graph: one launch instead of a
  // hundred small ones on the coarse levels). A recording must leave the fine buffers as it
  // found them: an even number of fine sweeps per cycle does.
  // Full multigrid too: O(levels^2) small launches, run once.
  if (cycles.recordable()) {
    start.rest_of_cycle = backend.record([&] { cycles.finish_cycle(cur, next); });
    if (done == 0 && fmg_start)
      start.fmg = backend.record([&] { cycles.full_multigrid(cur, next); });
  }
  // Cycles that cannot be recorded whole (float cycles in a double solve) prepare their start.
  if constexpr (CycleTraits<C>::prepares_start)
    if (done == 0 && fmg_start) cycles.prepare_start(cur, next);
  LoopPlan plan;
  plan.last = c.solve.max_iterations;
  plan.updated_cells = f.updated_cells;
  plan.multigrid = true;
  plan.cycle_stall = cycles.monotone();
  plan.krylov_stall = !cycles.monotone();  // conjugate gradients
  plan.discretization = c.solve.tolerance_discretization;
  SolveLoop<T> loop(c, backend, out, options, L, f.decomposition, cur, done, f.earlier_seconds, r,
                    plan);
  CycleIteration<T, C> iteration(loop, c, backend, options, cycles, start, L, f.decomposition,
                                 f.box, f.updated_cells, richardson);
  return loop.run(iteration);
}

}  // namespace fdsolve::multigrid
