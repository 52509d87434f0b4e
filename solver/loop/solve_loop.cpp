// The one solve loop (see solve_loop.hpp): its set-up, its turns and the check; what it writes at
// its marks and its end are in solve_loop_output.cpp.
#include "solve_loop.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "end_checkpoint.hpp"
#include "loop_support.hpp"
#include "problem/problem_setup.hpp"
#include "run_clock.hpp"

namespace fdsolve {
namespace {

/// `value`, once RunClock has marked `stage`: the set-up stages before and after the writer
/// starts, in the order of the loop's members.
template <typename V>
const V& marked(const char* stage, const V& value) {
  RunClock::get().mark(stage);
  return value;
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

StopRules::StopRules(const Case& c, const SolveOptions& options, double first_norm,
                     const LoopPlan& plan)
    : request(options.stop, options.max_wall_seconds),
      divergence(c),
      tolerance(c, first_norm),
      converges(!plan.heat),
      stagnation(c, plan.multigrid) {
  if (plan.discretization) discretization.emplace();
  if (plan.krylov_stall) krylov.emplace();
  if (plan.cycle_stall) stall.emplace();
}

template <typename T>
SolveLoop<T>::SolveLoop(const Case& c, Backend<T>& backend, output::RunOutput& out,
                        const SolveOptions& options, const Layout& L,
                        const parallel::Decomposition& d, Buffer<T>& cur, std::int64_t done,
                        double earlier_seconds, const SolveResult& r, const LoopPlan& plan)
    : c_(c),
      backend_(backend),
      out_(out),
      options_(options),
      L_(L),
      cur_(cur),
      done_(done),
      earlier_seconds_(earlier_seconds),
      r_(r),
      plan_(plan),
      writer_(marked("operator and fields ready", c), backend, L, out, options.comm, d),
      progress_(marked("writer ready", options.live_progress), plan.last, plan.updated_cells, done,
                plan.heat),
      rules_(c, options, r.first_norm, plan),
      grid_(grid_meta(c)),
      it_(done) {
  // A sub-solve (final_state: the coarse grid of solve.tolerance: discretization) writes
  // nothing, probes.csv included.
  if (!c.output.probes.empty() && !options.final_state) {
    probes_.emplace(c, backend, L_, d.sub, options.comm);
    std::vector<std::string> names;
    for (const ProbeSpec& p : c.output.probes) names.push_back(p.name);
    out_.set_probe_names(std::move(names));
    if (options.resume) out_.restore_probes(options.resume->probes);
  }
  // A steady run measures its balance at its final row: a run continued past that row (a
  // smaller tolerance, more iterations) drops it, as an uninterrupted run never measured it
  // there (a checkpoint's row keeps it: both runs measure those).
  if (options.resume && !plan.heat && !out_.history().empty()) {
    output::HistoryRow last = out_.history().back();
    const bool checkpoint_row = c.checkpoint.every > 0 && last.iteration % c.checkpoint.every == 0;
    if (!last.balance.empty() && !checkpoint_row) {
      last.balance.clear();
      out_.replace_last_history(last);
    }
  }
  // A sub-solve (final_state) writes nothing (and needs no second medium kept beside the
  // run's own in resolved_medium's cache). The balance is one of a check's
  // diagnostics: solve.diagnostics: false, which asks for lean checks, skips it too (on a
  // device each measurement downloads u).
  if (!measures_balance(c) || options.final_state || !c.solve.diagnostics) return;
  balance_.emplace(c, d.sub, op::resolved_medium(c));
  if (options.comm.several()) balance_halo_.emplace(L, backend, options.comm, d, false);
}

template <typename T>
bool SolveLoop<T>::check_due(std::int64_t it) const {
  const bool checkpoint_due = c_.checkpoint.every > 0 && it % c_.checkpoint.every == 0;
  return it == 1 || it % c_.solve.check_every == 0 || it == plan_.last || checkpoint_due;
}

template <typename T>
double SolveLoop<T>::seconds() const {
  return seconds_since(start_);
}

template <typename T>
LoopState SolveLoop<T>::state_now(LoopIteration<T>& iteration) const {
  return LoopState{it_,
                   iteration.time_after(it_),
                   r_.first_norm,
                   earlier_seconds_ + seconds(),
                   backend_.name(),
                   r_.kernel};
}

template <typename T>
void SolveLoop<T>::record_start(const SweepStats& start, double reference) {
  r_.first_norm = std::isnan(reference) ? chosen(start) : std::max(chosen(start), reference);
  rules_.tolerance.set_reference(r_.first_norm);
  // A run interrupted during its first cycle resumes at iteration 0, its initial row restored.
  if (!options_.resume) {
    output::HistoryRow row = history_row(0, 0.0, start, nullptr, seconds());
    if (plan_.heat) add_balance(row, 0.0);  // a steady solve's balance is its answer's (finish)
    out_.add_history(row);
    sample_probes(0, 0.0);
  }
  progress_.check(0, chosen(start), rules_.tolerance.target(), "initial residual");
}

template <typename T>
SolveResult SolveLoop<T>::run(LoopIteration<T>& iteration) {
  rules_.request.start_clock();
  start_ = std::chrono::steady_clock::now();
  RunClock::get().loop_started();
  // Output at physical times starts with t = 0 (a resumed run's is in its index already).
  if (plan_.initial_snapshot && done_ == 0 && !options_.resume) {
    writer_.snapshot(cur_, cur_, 0, iteration.time_after(0));
    sample_probes(0, iteration.time_after(0));
    writer_.flush_history();
    writer_.flush_probes();
    last_snapshot_ = 0;
  }
  bool ended = handle(iteration, iteration.open());
  const bool stop_first = iteration.stop_before_count();
  while (!ended) {
    // A signal (or the clock) reaches the ranks at different moments: they stop together, at
    // the iteration the iteration's agreement names (a signal outranks the time limit).
    if (!stop_first && it_ >= plan_.last) break;
    if (const int why = iteration.agreed_stop(it_); why != StopRequest::kNone) {
      r_.status = StopRequest::status(why);
      break;
    }
    if (stop_first && it_ >= plan_.last) break;
    if (const std::int64_t n = iteration.advance_block(it_); n > 0) {
      it_ += n;
      continue;
    }
    if (plan_.heat && before_last_heat_step(it_, plan_.last) && writer_.last_checkpoint() != it_)
      checkpoint(iteration);  // what a longer run continues from (end_checkpoint.hpp)
    ended = handle(iteration, iteration.advance(it_));
  }
  finish(iteration);
  return r_;
}

template <typename T>
bool SolveLoop<T>::handle(LoopIteration<T>& iteration, const Advance& a) {
  switch (a.kind) {
    case Advance::Kind::Nothing:
      return false;
    case Advance::Kind::Abandoned:
      abandoned_ = true;
      return true;
    case Advance::Kind::InputDiverged:
      // The state is that of the last complete iteration, which is still finite.
      r_.divergence = iteration.input_divergence();
      r_.status = SolveStatus::Diverged;
      return true;
    default:
      break;
  }
  it_ += a.count;
  if (a.kind == Advance::Kind::Checked || a.kind == Advance::Kind::Recorded) {
    if (const std::optional<SolveStatus> stop = check(iteration, a)) {
      r_.status = *stop;
      return true;  // before the output: a diverged state is never checkpointed
    }
  }
  // The restored row of a resumed run and the probe of a fresh start have nothing to write.
  if (a.kind != Advance::Kind::Recorded && it_ > 0) write_due_output(iteration);
  return false;
}

namespace {
/// |u|'s largest value at a check, from its row.
double largest_u(const output::HistoryRow& row) {
  return std::max(std::abs(row.min), std::abs(row.max));
}
}  // namespace

template <typename T>
std::optional<SolveStatus> SolveLoop<T>::check(LoopIteration<T>& iteration, const Advance& a) {
  const double norm = chosen(a.stats);
  if (it_ == iteration.first_check()) {
    r_.first_norm = std::isnan(a.first_norm) ? norm : a.first_norm;
    rules_.tolerance.set_reference(r_.first_norm);
  }
  r_.norm_l2 = a.stats.l2();
  r_.norm_linf = a.stats.linf();
  if (a.kind == Advance::Kind::Recorded) return std::nullopt;  // already in the history

  const Diagnostics* diagnosed = iteration.diagnose_check(it_, norm);
  output::HistoryRow row =
      history_row(it_, iteration.time_after(it_), a.stats, diagnosed, earlier_seconds_ + seconds());
  row.factor = a.own_factor ? a.factor : norm_factor(row, out_.history(), c_.solve.norm);
  row.cycles = a.cycles;
  // Heat: the first row and every check_every-th, the heat content over time. Steady runs:
  // the final row alone (finish()), where the answer is; a multigrid or CG solve has a row per
  // cycle, and a device run downloads u for each measurement. Both: a checkpoint's row. The
  // rule does not depend on where this session ends, so a resumed run's rows are an
  // uninterrupted run's.
  const bool checkpoint_due = c_.checkpoint.every > 0 && it_ % c_.checkpoint.every == 0;
  if ((plan_.heat && (it_ == 1 || it_ % c_.solve.check_every == 0)) || checkpoint_due)
    add_balance(row, iteration.time_after(it_));
  out_.add_history(row);
  sample_probes(it_, row.time);
  const std::string detail = iteration.check_detail(it_, row, diagnosed);
  progress_.check(it_, norm, std::isnan(a.target) ? rules_.tolerance.target() : a.target, detail);

  const double reference = rules_.divergence.reference(
      std::isnan(a.divergence_reference) ? r_.first_norm : a.divergence_reference, norm);
  if (rules_.divergence.diverged(norm, reference, a.stats, diagnosed)) {
    // Located even when the diagnostics are off: the run ends here anyway.
    const Diagnostics& where = iteration.divergence_diagnostics(diagnosed);
    r_.divergence = locate_divergence(it_, iteration.time_after(it_), norm,
                                      rules_.divergence.limit(reference), where, grid_);
    return SolveStatus::Diverged;
  }
  if (rules_.converges && rules_.tolerance.reached(norm)) return SolveStatus::Converged;
  if (rules_.discretization && rules_.discretization->reached()) {
    const DiscretizationStop& d = *rules_.discretization;
    spdlog::info(
        "converged to the discretization error: the estimated algebraic error {:.3e} is at "
        "most {:g} x the estimated discretization error {:.3e} ({} norm)",
        d.algebraic(), DiscretizationStop::kFraction, d.discretization(),
        c_.solve.norm == NormKind::L2 ? "l2" : "linf");
    return SolveStatus::Converged;
  }
  // Conjugate gradients' residual wanders about the floor once it is there, so two iterations
  // without progress end the solve where the latest or the best residual lies within the
  // floor's band (the estimate, free) or where rounding holds the true residual up (two device
  // reductions).
  const ResidualCheck now{it_, norm, a.stats.linf(), largest_u(row)};
  if (it_ > 0 && rules_.krylov && rules_.krylov->stalled(now, [&](const ResidualCheck& best) {
        return at_floor(now) || at_floor(best) || iteration.at_rounding_floor();
      }))
    return stopped_falling(now, true);
  if (it_ > 0 && rules_.stall && rules_.stall->stalled(row.factor))
    return stopped_falling(now, false);
  if (it_ > 0) rules_.stagnation.check(out_.history(), rules_.tolerance.target());
  iteration.checked(it_, norm);
  return std::nullopt;
}

template <typename T>
const RoundingFloor& SolveLoop<T>::rounding_floor() {
  // The medium's range is looked up only once a solve stops falling.
  if (!floor_) floor_.emplace(c_);
  return *floor_;
}

template <typename T>
bool SolveLoop<T>::at_floor(const ResidualCheck& check) {
  return rounding_floor().reached(check.linf, check.u_max, check.norm, r_.first_norm);
}

template <typename T>
SolveStatus SolveLoop<T>::stopped_falling(const ResidualCheck& now, bool krylov) {
  const RoundingFloor& floor = rounding_floor();
  const double target = rules_.tolerance.target();
  // Conjugate gradients' latest residual may have wandered up from a best at the floor: the
  // check that shows the floor is the one reported.
  const ResidualCheck& best = krylov ? rules_.krylov->best_check() : now;
  const ResidualCheck& at = !at_floor(now) && at_floor(best) ? best : now;
  r_.rounding_floor = output::RoundingFloorReport{c_.solve.norm == NormKind::L2 ? "l2" : "linf",
                                                  at.norm, target, at.linf, floor.at(at.u_max)};
  if (at_floor(at)) {
    r_.at_rounding_floor = true;
    spdlog::warn("{}", describe_floor_convergence(c_, floor, it_, at, target));
    return SolveStatus::Converged;
  }
  r_.stop_message = krylov ? describe_krylov_stall(c_, floor, now, *rules_.krylov, target)
                           : describe_stall(c_, floor, now, target);
  return SolveStatus::Stalled;
}

template class SolveLoop<float>;
template class SolveLoop<double>;

}  // namespace fdsolve
