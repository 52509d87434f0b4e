// One implicit heat step (see implicit_step.hpp).
#include "implicit_step.hpp"

#include <algorithm>
#include <cmath>

#include "parallel/reduce.hpp"
#include "problem/problem_setup.hpp"
#include "problem/robin_faces.hpp"
#include "problem/weights.hpp"

namespace fdsolve::heat {
namespace {

/// The source at t plus the Robin faces' ambient term (robin_faces.hpp), per node of L.
std::vector<double> source_with_robin(const Case& c, const Layout& L, const Subdomain& sub,
                                      double t) {
  std::vector<double> q = source_values<double>(c, L, sub, 1.0, t);
  if (!has_robin_faces(c)) return q;
  const std::vector<double> g = robin_source_values<double>(c, L, sub, 1.0, t);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] += g[i];
  return q;
}

}  // namespace

template <typename T>
ImplicitStep<T>::ImplicitStep(const Case& c, Backend<T>& backend, const StepFields<T>& fields,
                              std::unique_ptr<StepOperator<T>> op)
    : c_(c), backend_(backend), f_(fields), op_(std::move(op)) {
  if (op_->source_field()) source_ = backend.allocate(f_.layout.size);
}

template <typename T>
void ImplicitStep<T>::set_step(double dt, bool backward_euler) {
  if (dt == dt_ && backward_euler == backward_euler_) return;
  dt_ = dt;
  backward_euler_ = backward_euler;
  // c u_t = k lap u + q with c a number: the steps of dt / c (c = 1 divides exactly).
  const double step = dt / capacity_number(c_);
  const double beta = (backward_euler ? 1.0 : 0.5) * step * op_->coefficient();
  if (beta != beta_) {
    beta_ = beta;
    op_->set_shift(beta);
  }
  rhs_scale_ = op_->rhs_scale();
  op_->set_rhs(StepScheme{dt, step, backward_euler, beta});
}

template <typename T>
void ImplicitStep<T>::load_source(double t, double t_next, bool both) {
  if (both && q_loaded_[1] && q_time_[1] == t) {  // the last step's end is this step's start
    q_[0].swap(q_[1]);
    q_time_[0] = t;
    q_loaded_[0] = true;
    q_loaded_[1] = false;
  }
  const double times[2] = {t, t_next};
  for (int i = 0; i < 2; ++i) {
    if (i == 0 && !both) continue;
    if (q_loaded_[i] && q_time_[i] == times[i]) continue;
    q_[i] = source_with_robin(c_, f_.layout, f_.sub, times[i]);
    q_time_[i] = times[i];
    q_loaded_[i] = true;
  }
}

template <typename T>
const T* ImplicitStep<T>::source_term(double t, double t_next) {
  if (source_.size() == 0) return nullptr;
  const bool in_time = c_.problem.source.uses_time || robin_ambient_uses_time(c_);
  if (source_dt_ == dt_ && source_backward_euler_ == backward_euler_ &&
      (!in_time || (t == source_t_ && t_next == source_t_next_)))
    return source_.data();
  std::vector<T> values(static_cast<std::size_t>(f_.layout.size));
  const double scale = rhs_scale_ * (dt_ / capacity_number(c_));
  // BE reads q(t_next) alone, and so does CN where q is constant in time (the mean of q twice
  // is q); such a source is evaluated once, at t = 0.
  const bool mean = !backward_euler_ && in_time;
  load_source(in_time ? t : 0.0, in_time ? t_next : 0.0, mean);
  const std::vector<double>& q0 = q_[0];
  const std::vector<double>& q1 = q_[1];
  if (mean) {
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<T>(scale * 0.5 * (q0[i] + q1[i]));
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<T>(scale * q1[i]);
  }
  backend_.upload(source_, values.data(), f_.layout.size);
  source_dt_ = dt_;
  source_backward_euler_ = backward_euler_;
  source_t_ = t;
  source_t_next_ = t_next;
  return source_.data();
}

template <typename T>
StepSolve ImplicitStep<T>::step(double t, double t_next, const StepPlan& plan) {
  // The right-hand side from the old u: its ghosts hold the gradients at t (CN's A u at t).
  f_.boundaries.gradients_at(t);
  f_.fill_ghosts(f_.cur);
  op_->build_rhs(source_term(t, t_next));
  if (plan.after_rhs) plan.after_rhs();
  // The new level: Dirichlet and held values at t_next in both buffers (the sweeps read them as
  // fixed values), ghosts from the gradients at t_next.
  f_.boundaries.write_dirichlet(f_.cur, t_next);
  f_.boundaries.write_dirichlet(f_.next, t_next);
  op_->hold_at(t_next);
  f_.boundaries.gradients_at(t_next);

  const auto norm_of = [&](const SweepStats& s) {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  };
  const double scale = op_->residual_scale();
  StepSolve r;
  // The first cycles without waiting: every probe's statistics come back at one wait, and are
  // then read as the per-cycle test below would have read them. The residual of the old u
  // comes first when a start guess replaces it.
  std::vector<SweepStats> early;
  const int unchecked = std::min(plan.unchecked_cycles, op_->max_unchecked());
  if (unchecked > 0) {
    if (plan.start_guess) {
      op_->enqueue_probe();
      plan.start_guess();
    }
    op_->enqueue_probe();
    for (int k = 0; k < unchecked; ++k) {
      op_->cycle(k);
      op_->enqueue_probe();
    }
    early = op_->collect_probes();
  }
  // The probe's statistics over every rank, merged in rank order (deterministic), so that all
  // take the same cycles.
  std::size_t next_early = 0;
  const auto probe = [&] {
    if (next_early < early.size()) return scale_norms(early[next_early++], scale);
    const SweepStats mine = op_->probe();
    return scale_norms(parallel::timed_reduce_stats(f_.comm, mine, reduce_seconds_), scale);
  };
  r.residual = probe();
  r.first_norm = norm_of(r.residual);
  r.target = std::max(c_.solve.absolute_tolerance, c_.solve.tolerance * r.first_norm);
  if (plan.start_guess) {  // the target stays relative to the old u's residual
    if (unchecked == 0) plan.start_guess();
    r.residual = probe();
  }
  double norm = norm_of(r.residual);
  op_->start_cycles(norm);
  const auto early_cycles = static_cast<std::int64_t>(early.size() - next_early);
  bool stopped = false;  // where the per-cycle test stops: met the target, stalled or the limit
  const auto go_on = [&] {
    return norm > r.target && std::isfinite(norm) && r.cycles < c_.solve.max_iterations;
  };
  for (;;) {
    const bool ran = r.cycles < early_cycles;  // the cycle ran before the wait
    stopped = stopped || !go_on();
    if (stopped && !ran) break;
    if (stopped) ++r.surplus;  // a cycle the per-cycle test would not have run
    if (!ran) op_->cycle(r.cycles);
    ++r.cycles;
    r.residual = probe();
    const double before = norm;
    norm = norm_of(r.residual);
    if (!stopped && norm > r.target && op_->stalled(r.cycles, norm, before)) {
      r.stalled = true;
      stopped = true;
    }
  }
  r.converged = norm <= r.target;
  return r;
}

template <typename T>
void ImplicitStep<T>::extrapolate(Buffer<T>& u, const std::vector<const Buffer<T>*>& earlier,
                                  const std::vector<double>& c) {
  extrapolate_start(backend_, u, earlier, c, f_.layout, f_.box, op_->held_marker());
}

template class ImplicitStep<float>;
template class ImplicitStep<double>;

}  // namespace fdsolve::heat
