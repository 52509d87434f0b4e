// One implicit heat step (see implicit_step.hpp).
#include "implicit_step.hpp"

#include <algorithm>
#include <cmath>

#include "parallel/reduce.hpp"
#include "problem/problem_setup.hpp"
#include "problem/weights.hpp"

namespace fdsolve::heat {

using namespace multigrid;

namespace {

/// A cycle that reduces the residual by less than this factor has reached the rounding level
/// of the precision (multigrid's own factor is about 0.1): more cycles would not help.
constexpr double kStallFactor = 0.9;
/// Cycles run unchecked at most: their probes, the start's and the old u's fill the
/// backend's eight statistics slots.
constexpr int kMaxUnchecked = 6;

}  // namespace

template <typename T>
ImplicitStep<T>::ImplicitStep(const Case& c, Backend<T>& backend, KernelId kernel,
                              std::vector<LevelGeometry> levels, Boundaries<T>& boundaries,
                              Buffer<T>& cur, Buffer<T>& next, const LevelRanks& ranks,
                              HaloExchange<T>& halo)
    : c_(c),
      backend_(backend),
      boundaries_(boundaries),
      cur_(cur),
      next_(next),
      comm_(ranks.comm),
      halo_(halo),
      sub_(ranks.split ? ranks.split->level[0].sub : Subdomain::whole(c)),
      L_(field_layout(c, sizeof(T), sub_)),
      box_(update_box(c, sub_)),
      kernel_(kernel),
      cycles_(std::move(levels),
              CycleSettings{c.solve.multigrid, 1.0, 0.0, CycleSettings{}.bottom_reduction,
                            fused_restriction_pays(backend.traits(), c.grid.dims)},
              backend, kernel,
              [this](Buffer<T>& x) { boundaries_.fill_ghosts(x, halo_); }, ranks) {
  g_ = backend.allocate(L_.size);
  backend.zero(g_);
  if (has_source_field(c)) source_ = backend.allocate(L_.size);
  cycles_.set_fine_rhs(g_.data(), 0.0);
}

template <typename T>
void ImplicitStep<T>::set_step(double dt, bool backward_euler) {
  if (dt == dt_ && backward_euler == backward_euler_) return;
  dt_ = dt;
  backward_euler_ = backward_euler;
  // c u_t = k lap u + q with c a number: the steps of dt / c (c = 1 divides exactly).
  const double step = dt / capacity_number(c_);
  const double beta = (backward_euler ? 1.0 : 0.5) * step * c_.problem.diffusivity;
  if (beta != beta_) {
    beta_ = beta;
    cycles_.set_shift(1.0, beta);
    if (!cycles_.bottom_by_cg() && cycles_.bottom_sweeps() >= 1000000000)
      throw BackendError("multigrid: the bottom solve on the coarsest grid does not converge");
    record();
  }
  rhs_scale_ = cycles_.op(0).rhs_scale;
  // g = rhs_scale (I + dt/2 k L) u for CN: the explicit step's weights of dt/2, scaled; BE
  // keeps only the centre. Neither carries the source, which source_term adds.
  StencilWeights w;
  if (!backward_euler) {
    w = heat_step_weights(c_, 0.5 * dt).weights;
    w.center *= rhs_scale_;
    for (double& f : w.face) f *= rhs_scale_;
    w.edge *= rhs_scale_;
    w.corner *= rhs_scale_;
  } else {
    w.points = heat_step_weights(c_, dt).weights.points;
    w.center = rhs_scale_;
  }
  w.source =
      c_.problem.source.is_constant() ? rhs_scale_ * step * c_.problem.source.constant : 0.0;
  rhs_weights_ = w;
}

template <typename T>
void ImplicitStep<T>::record() {
  // The rest of a cycle after its probe as one recording (a CUDA graph), as the steady loop
  // does; it must leave the fine buffers as it found them: an even number of fine sweeps.
  rest_of_cycle_.reset();
  fmg_.reset();
  if (!cycles_.recordable()) return;
  rest_of_cycle_ = backend_.record([this] { cycles_.finish_cycle(cur_, next_); });
  if (c_.solve.multigrid.fmg)
    fmg_ = backend_.record([this] { cycles_.full_multigrid(cur_, next_); });
}

template <typename T>
void ImplicitStep<T>::load_source(double t, double t_next) {
  if (q_loaded_[1] && q_time_[1] == t) {  // the last step's end is this step's start
    q_[0].swap(q_[1]);
    q_time_[0] = t;
    q_loaded_[0] = true;
    q_loaded_[1] = false;
  }
  const double times[2] = {t, t_next};
  for (int i = 0; i < 2; ++i) {
    if (i == 0 && backward_euler_) continue;  // BE reads q(t_next) only
    if (q_loaded_[i] && q_time_[i] == times[i]) continue;
    q_[i] = source_values<double>(c_, L_, sub_, 1.0, times[i]);
    q_time_[i] = times[i];
    q_loaded_[i] = true;
  }
}

template <typename T>
const T* ImplicitStep<T>::source_term(double t, double t_next) {
  if (source_.size() == 0) return nullptr;
  const bool in_time = c_.problem.source.uses_time;
  const bool stale = source_dt_ != dt_ || source_backward_euler_ != backward_euler_ ||
                     (in_time && (t != source_t_ || t_next != source_t_next_));
  if (stale) {
    std::vector<T> values(static_cast<std::size_t>(L_.size));
    const double scale = rhs_scale_ * (dt_ / capacity_number(c_));
    // A source constant in time is evaluated once, at t = 0.
    load_source(in_time ? t : 0.0, in_time ? t_next : 0.0);
    const std::vector<double>& q0 = q_[0];
    const std::vector<double>& q1 = q_[1];
    if (!backward_euler_) {
      for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<T>(scale * 0.5 * (q0[i] + q1[i]));
    } else {
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<T>(scale * q1[i]);
    }
    backend_.upload(source_, values.data(), L_.size);
    source_dt_ = dt_;
    source_backward_euler_ = backward_euler_;
    source_t_ = t;
    source_t_next_ = t_next;
  }
  return source_.data();
}

template <typename T>
StepSolve ImplicitStep<T>::step(double t, double t_next, const StepPlan& plan) {
  // The right-hand side from the old u: its ghosts hold the gradients at t (CN's L u at t).
  boundaries_.gradients_at(t);
  boundaries_.fill_ghosts(cur_, halo_);
  SweepArgs<T> a;
  a.in = cur_.data();
  a.out = g_.data();
  a.source_field = source_term(t, t_next);
  a.layout = L_;
  a.box = box_;
  a.weights = rhs_weights_;
  backend_.sweep(a, kernel_);
  if (plan.after_rhs) plan.after_rhs();
  // The new level: Dirichlet values at t_next in both buffers (the sweeps read them as fixed
  // values), ghosts from the gradients at t_next.
  boundaries_.write_dirichlet(cur_, t_next);
  boundaries_.write_dirichlet(next_, t_next);
  boundaries_.gradients_at(t_next);

  const auto norm_of = [&](const SweepStats& s) {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  };
  const double scale = cycles_.residual_scale();
  const auto run_cycle = [&](std::int64_t done) {
    if (done == 0 && fmg_)
      fmg_->run();  // the correction equation, coarsest grid first
    else if (done == 0 && c_.solve.multigrid.fmg)
      cycles_.full_multigrid(cur_, next_);
    else if (rest_of_cycle_)
      rest_of_cycle_->run();
    else
      cycles_.finish_cycle(cur_, next_);
  };
  StepSolve r;
  // The first cycles without waiting (one rank): every probe's statistics come back at one
  // wait, and are then read as the per-cycle test below would have read them. The residual
  // of the old u comes first when a start guess replaces it.
  std::vector<SweepStats> early;
  const int unchecked = comm_.several() ? 0 : std::min(plan.unchecked_cycles, kMaxUnchecked);
  if (unchecked > 0) {
    if (plan.start_guess) {
      cycles_.enqueue_probe(cur_, next_);
      plan.start_guess();
    }
    cycles_.enqueue_probe(cur_, next_);
    for (int k = 0; k < unchecked; ++k) {
      run_cycle(k);
      cycles_.enqueue_probe(cur_, next_);
    }
    early = cycles_.collect_probes();
  }
  // The probe's statistics over every rank, merged in rank order (deterministic).
  std::size_t next_early = 0;
  const auto probe = [&] {
    if (next_early < early.size()) return scale_norms(early[next_early++], scale);
    const SweepStats mine = cycles_.probe(cur_, next_);
    return scale_norms(parallel::timed_reduce_stats(comm_, mine, reduce_seconds_), scale);
  };
  r.residual = probe();
  r.first_norm = norm_of(r.residual);
  r.target = std::max(c_.solve.absolute_tolerance, c_.solve.tolerance * r.first_norm);
  if (plan.start_guess) {
    if (unchecked == 0) plan.start_guess();
    r.residual = probe();
  }
  double norm = norm_of(r.residual);
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
    if (!ran) run_cycle(r.cycles);
    ++r.cycles;
    r.residual = probe();
    const double before = norm;
    norm = norm_of(r.residual);
    if (!stopped && norm > kStallFactor * before && norm > r.target) {
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
  extrapolate_start(backend_, u, earlier, c, L_, box_);
}

template class ImplicitStep<float>;
template class ImplicitStep<double>;

}  // namespace fdsolve::heat
