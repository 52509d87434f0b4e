// See flux_step.hpp.
#include "flux_step.hpp"

#include <algorithm>
#include <cmath>

#include "operator/flux_levels.hpp"
#include "parallel/reduce.hpp"
#include "problem/problem_setup.hpp"
#include "problem/robin_faces.hpp"
#include "problem/weights.hpp"

namespace fdsolve::heat {
namespace {

/// The iteration counts as stalled when the residual has not reached a new best (by 10 %) for
/// this many iterations: one for stationary cycles (each must reduce it), ten for conjugate
/// gradients, whose residual may rise for a while.
int stall_window(bool cg) { return cg ? 10 : 1; }

/// Whether the case's source is zero everywhere (nothing to add to the right-hand side).
bool no_source(const Case& c) {
  return c.problem.source.is_constant() && c.problem.source.constant == 0.0 &&
         !has_robin_faces(c);
}

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
FluxImplicitStep<T>::FluxImplicitStep(const Case& c, const op::Medium& m, Backend<T>& backend,
                                      const parallel::Comm& comm,
                                      const parallel::Decomposition& d,
                                      Boundaries<T>& boundaries, HaloExchange<T>& halo,
                                      Buffer<T>& cur, Buffer<T>& next)
    : c_(c),
      backend_(backend),
      comm_(comm),
      boundaries_(boundaries),
      halo_(halo),
      cur_(cur),
      next_(next),
      L_(field_layout(c, sizeof(T), d.sub)),
      box_(update_box(c, d.sub)),
      sub_(d.sub),
      capacity_(m.capacity_varies()),
      // A first shift; set_step gives the step's.
      cycles_(c, m, backend, comm, d, capacity_ ? 0.0 : 1.0, 1.0, false),
      held_(c, m, backend, L_, sub_),
      g_(backend.allocate(L_.size)),
      source_(no_source(c) ? Buffer<T>{} : backend.allocate(L_.size)),
      iteration_(cycles_.fine(), cycles_.preconditioner(), backend,
                 {sub_, L_, box_, &halo, comm}, g_.data(), 0.0, multigrid::flux_uses_cg(c),
                 [this](Buffer<T>& x) { boundaries_.fill_ghosts(x, halo_); }) {
  backend.zero(g_);
  if (capacity_) {
    // K - c_i on this rank's nodes, K = 2 max c: the right-hand side's sweep keeps K u and
    // takes (K - c) u off, leaving c u, with a diagonal that is never 0 (K - c >= max c).
    rhs_keep_ = 2.0 * m.capacity_max;
    const op::FluxLevel<T> level = op::fine_flux_level<T>(cycles_.levels()[0], m, d.sub);
    std::vector<T> diagonal(level.capacity.begin(), level.capacity.end());
    for (T& v : diagonal) v = static_cast<T>(rhs_keep_ - static_cast<double>(v));
    rhs_diagonal_ = backend.allocate(L_.size);
    backend.upload(rhs_diagonal_, diagonal.data(), L_.size);
    if (!level.diagonal.empty()) {
      // Robin faces: Crank-Nicolson's A u carries their term beta robin_i on the diagonal,
      // added to K - c_i in set_step (the sweep's one diagonal array).
      rhs_base_ = std::move(rhs_diagonal_);
      rhs_diagonal_ = backend.allocate(L_.size);
      robin_ = backend.allocate(L_.size);
      backend.upload(robin_, level.diagonal.data(), L_.size);
    }
  }
}

template <typename T>
void FluxImplicitStep<T>::set_step(double dt, bool backward_euler) {
  dt_ = dt;
  backward_euler_ = backward_euler;
  // A capacity that is a number c divides the equation: the steps of dt / c.
  const double beta = (backward_euler ? 1.0 : 0.5) * (dt / capacity_number(c_));
  if (robin_.size()) {
    // The right-hand side's diagonal K - c_i + (CN: beta robin_i; BE: no A u).
    const double rhs_robin = backward_euler ? 0.0 : beta;
    if (rhs_robin != rhs_robin_) {
      rhs_robin_ = rhs_robin;
      multigrid::scale_diagonal(require_flux_operations(backend_), backend_, robin_,
                                rhs_diagonal_, rhs_robin, L_, &rhs_base_);
    }
  }
  if (beta == beta_) return;
  beta_ = beta;
  // C + beta A with a capacity that varies (its diagonal on every level), else I + beta A.
  cycles_.set_shift(capacity_ ? 0.0 : 1.0, beta);
  iteration_.set_fine(cycles_.fine());
}

template <typename T>
const T* FluxImplicitStep<T>::source_term(double t, double t_next) {
  if (source_.size() == 0) return nullptr;
  const bool in_time = c_.problem.source.uses_time || robin_ambient_uses_time(c_);
  if (source_dt_ == dt_ && source_backward_euler_ == backward_euler_ &&
      (!in_time || (t == source_t_ && t_next == source_t_next_)))
    return source_.data();
  // A source constant in time is evaluated at t = 0 (once per dt).
  std::vector<double> q = source_with_robin(c_, L_, sub_, in_time ? t_next : 0.0);
  if (!backward_euler_ && in_time) {
    const std::vector<double> q0 = source_with_robin(c_, L_, sub_, t);
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = 0.5 * (q0[i] + q[i]);
  }
  std::vector<T> values(q.size());
  const double step = dt_ / capacity_number(c_);
  for (std::size_t i = 0; i < q.size(); ++i) values[i] = static_cast<T>(step * q[i]);
  backend_.upload(source_, values.data(), L_.size);
  source_dt_ = dt_;
  source_backward_euler_ = backward_euler_;
  source_t_ = t;
  source_t_next_ = t_next;
  return source_.data();
}

template <typename T>
StepSolve FluxImplicitStep<T>::step(double t, double t_next, const StepPlan& plan) {
  // The right-hand side from the old u, its ghosts holding the gradients at t.
  boundaries_.gradients_at(t);
  boundaries_.fill_ghosts(cur_, halo_);
  const T* source = source_term(t, t_next);
  if (capacity_) {
    // g = C u + s (BE) or C u + s - dt/2 A u (CN) by one flux sweep, keep K, step 1, no
    // relaxation: the operator's diagonal K - c_i (K u - (K - c) u = c u at each node) and,
    // for CN, its faces at the shift dt/2 (none for BE) and the Robin term dt/2 robin_i on
    // the diagonal (set_step). Held nodes get K u, which no solve
    // reads (their rows keep u).
    SweepArgs<T> a;
    a.in = cur_.data();
    a.out = g_.data();
    a.source_field = source;
    a.layout = L_;
    a.box = box_;
    a.flux = cycles_.fine().op(rhs_keep_, 1.0, 0.0);
    a.flux.alpha = 0.0;
    a.flux.diagonal = rhs_diagonal_.data();
    if (backward_euler_) a.flux.c = {0.0, 0.0, 0.0};
    backend_.sweep(a, KernelId{L_.dims, 0});
  } else if (!backward_euler_) {
    // g = u + (s - dt/2 A u) by one flux sweep: keep 1, step 1, no relaxation, and the
    // operator without its identity shift (c = dt/2 / h^2 from the cycles' shift).
    SweepArgs<T> a;
    a.in = cur_.data();
    a.out = g_.data();
    a.source_field = source;
    a.layout = L_;
    a.box = box_;
    a.flux = cycles_.fine().op(1.0, 1.0, 0.0);
    a.flux.alpha = 0.0;
    backend_.sweep(a, KernelId{L_.dims, 0});
  } else {
    backend_.copy(g_, cur_);  // g = u + s
    if (source) {
      LinearCombinationArgs<T> add;
      add.y = g_.data();
      add.x = source;
      add.layout = L_;
      add.box = box_;
      add.held_face = cycles_.fine().held_marker();
      require_flux_operations(backend_).combine(add);
    }
  }
  if (plan.after_rhs) plan.after_rhs();
  // The new level: Dirichlet and time-dependent held values at t_next in both buffers (the
  // right-hand side above read them at t), ghosts from the gradients at t_next (the iteration
  // fills them before each residual).
  boundaries_.write_dirichlet(cur_, t_next);
  boundaries_.write_dirichlet(next_, t_next);
  if (held_.time_dependent()) {
    held_.evaluate(t_next);
    held_.write(cur_);
    held_.write(next_);
  }
  boundaries_.gradients_at(t_next);
  const auto norm_of = [&](const SweepStats& s) {
    return c_.solve.norm == NormKind::L2 ? s.l2() : s.linf();
  };
  iteration_.restart();  // a new system: conjugate gradients start a new direction
  // Every rank sees the norms of the whole grid, so that all take the same iterations.
  const auto probe = [&] { return parallel::reduce_stats(comm_, iteration_.probe(cur_, next_)); };
  StepSolve r;
  r.residual = probe();
  r.first_norm = norm_of(r.residual);
  r.target = std::max(c_.solve.absolute_tolerance, c_.solve.tolerance * r.first_norm);
  if (plan.start_guess) {  // the target stays relative to the old u's residual
    plan.start_guess();
    r.residual = probe();
  }
  double norm = norm_of(r.residual), best = norm;
  std::int64_t best_at = 0;
  while (norm > r.target && std::isfinite(norm) && r.cycles < c_.solve.max_iterations) {
    iteration_.finish_cycle(cur_, next_);
    ++r.cycles;
    r.residual = probe();
    norm = norm_of(r.residual);
    if (norm < 0.9 * best) {
      best = norm;
      best_at = r.cycles;
    } else if (norm > r.target &&
               (r.cycles - best_at >= stall_window(iteration_.conjugate_gradients()) ||
                (r.cycles - best_at >= 2 && iteration_.at_rounding_floor()))) {
      r.stalled = true;
      break;
    }
  }
  r.converged = norm <= r.target;
  return r;
}

template <typename T>
void FluxImplicitStep<T>::extrapolate(Buffer<T>& u, const std::vector<const Buffer<T>*>& earlier,
                              const std::vector<double>& c) {
  extrapolate_start(backend_, u, earlier, c, L_, box_,
                    cycles_.fine().held_marker());
}

template class FluxImplicitStep<float>;
template class FluxImplicitStep<double>;

}  // namespace fdsolve::heat
