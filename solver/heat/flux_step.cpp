// See flux_step.hpp.
#include "flux_step.hpp"

#include <limits>

#include "multigrid/flux_hierarchy.hpp"
#include "multigrid/flux_on_ranks.hpp"
#include "multigrid/flux_solve.hpp"
#include "operator/flux_levels.hpp"
#include "operator/held_values.hpp"
#include "operator/medium.hpp"
#include "problem/problem_setup.hpp"
#include "problem/robin_faces.hpp"

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

template <typename T>
class FluxStep final : public StepOperator<T> {
 public:
  FluxStep(const problem::Problem& p, const op::Medium& m, Backend<T>& backend,
           const StepFields<T>& f)
      : c_(p.c),
        backend_(backend),
        f_(f),
        capacity_(m.capacity_varies()),
        // A first shift; set_shift gives the step's.
        cycles_(p.c, p.levels, m, backend, f.comm, p.decomposition, capacity_ ? 0.0 : 1.0, 1.0,
                false),
        held_(p.c, m, backend, f.layout, f.sub),
        g_(backend.allocate(f.layout.size)),
        iteration_(cycles_.fine(), cycles_.preconditioner(), backend,
                   {f.sub, f.layout, f.box, &f.halo, f.comm}, g_.data(), 0.0,
                   multigrid::flux_uses_cg(p.c), [this](Buffer<T>& x) { f_.fill_ghosts(x); }) {
    backend.zero(g_);
    if (!capacity_) return;
    // K - c_i on this rank's nodes, K = 2 max c: the right-hand side's sweep keeps K u and
    // takes (K - c) u off, leaving c u, with a diagonal that is never 0 (K - c >= max c).
    rhs_keep_ = 2.0 * m.capacity_max;
    op::FluxLevel<T> level =
        op::fine_diagonal_terms<T>(cycles_.levels()[0], m, p.decomposition.sub, backend);
    const index_t size = f.layout.size;
    std::vector<T> diagonal(static_cast<std::size_t>(size));
    backend.download(diagonal.data(), level.capacity, size);
    for (T& v : diagonal) v = static_cast<T>(rhs_keep_ - static_cast<double>(v));
    rhs_diagonal_ = backend.allocate(size);
    backend.upload(rhs_diagonal_, diagonal.data(), size);
    if (level.diagonal.size()) {
      // Robin faces: Crank-Nicolson's A u carries their term beta robin_i on the diagonal,
      // added to K - c_i in set_rhs (the sweep's one diagonal array).
      rhs_base_ = std::move(rhs_diagonal_);
      rhs_diagonal_ = backend.allocate(size);
      robin_ = std::move(level.diagonal);
    }
  }

  double coefficient() const override { return 1.0; }

  void set_shift(double beta) override {
    // C + beta A with a capacity that varies (its diagonal on every level), else I + beta A.
    cycles_.set_shift(capacity_ ? 0.0 : 1.0, beta);
    iteration_.set_fine(cycles_.fine());
  }

  double rhs_scale() const override { return 1.0; }

  void set_rhs(const StepScheme& s) override {
    backward_euler_ = s.backward_euler;
    if (!robin_.size()) return;
    // The right-hand side's diagonal K - c_i + (CN: beta robin_i; BE: no A u).
    const double rhs_robin = s.backward_euler ? 0.0 : s.beta;
    if (rhs_robin == rhs_robin_) return;
    rhs_robin_ = rhs_robin;
    multigrid::scale_diagonal(require_flux_operations(backend_), backend_, robin_, rhs_diagonal_,
                              rhs_robin, f_.layout, &rhs_base_);
  }

  bool source_field() const override { return !no_source(c_); }

  void build_rhs(const T* source) override {
    SweepArgs<T> a = f_.sweep_of_u(g_, source);
    if (capacity_) {
      // g = C u + s (BE) or C u + s - dt/2 A u (CN) by one flux sweep, keep K, step 1, no
      // relaxation: the operator's diagonal K - c_i (K u - (K - c) u = c u at each node) and,
      // for CN, its faces at the shift dt/2 (none for BE) and the Robin term dt/2 robin_i on
      // the diagonal (set_rhs). Held nodes get K u, which no solve reads (their rows keep u).
      a.flux = cycles_.fine().op(rhs_keep_, 1.0, 0.0);
      a.flux.alpha = 0.0;
      a.flux.diagonal = rhs_diagonal_.data();
      if (backward_euler_) a.flux.c = {0.0, 0.0, 0.0};
      backend_.sweep(a, KernelId{f_.layout.dims, 0});
    } else if (!backward_euler_) {
      // g = u + (s - dt/2 A u) by one flux sweep: keep 1, step 1, no relaxation, and the
      // operator without its identity shift (c = dt/2 / h^2 from the cycles' shift).
      a.flux = cycles_.fine().op(1.0, 1.0, 0.0);
      a.flux.alpha = 0.0;
      backend_.sweep(a, KernelId{f_.layout.dims, 0});
    } else {
      backend_.copy(g_, f_.cur);  // g = u + s
      if (!source) return;
      LinearCombinationArgs<T> add;
      add.y = g_.data();
      add.x = source;
      add.layout = f_.layout;
      add.box = f_.box;
      add.held_face = cycles_.fine().held_marker();
      require_flux_operations(backend_).combine(add);
    }
  }

  void hold_at(double t_next) override {
    if (!held_.time_dependent()) return;
    held_.evaluate(t_next);
    held_.write(f_.cur);
    held_.write(f_.next);
  }
  const T* held_marker() const override { return cycles_.fine().held_marker(); }

  // Every iteration is checked: the conjugate gradients need their inner products on the host
  // anyway.
  SweepStats probe() override { return iteration_.probe(f_.cur, f_.next); }

  void start_cycles(double norm) override {
    iteration_.restart();  // a new system: conjugate gradients start a new direction
    best_ = norm;
    best_at_ = 0;
  }
  void cycle(std::int64_t /*done*/) override { iteration_.finish_cycle(f_.cur, f_.next); }

  bool stalled(std::int64_t cycles, double norm, double /*before*/) override {
    if (norm < 0.9 * best_) {
      best_ = norm;
      best_at_ = cycles;
      return false;
    }
    return cycles - best_at_ >= stall_window(iteration_.conjugate_gradients()) ||
           (cycles - best_at_ >= 2 && iteration_.at_rounding_floor());
  }

 private:
  const Case& c_;
  Backend<T>& backend_;
  StepFields<T> f_;
  bool capacity_;  // a capacity that varies: the operator C + beta A
  bool backward_euler_ = false;
  multigrid::FluxCyclesOnRanks<T> cycles_;
  op::HeldValues<T> held_;  // the held values that depend on t
  Buffer<T> g_;             // the right-hand side
  multigrid::FluxIteration<T> iteration_;
  /// A capacity that varies: the right-hand side's sweep keeps rhs_keep_ u (2 max c) with the
  /// diagonal rhs_keep_ - c_i.
  double rhs_keep_ = 1;
  Buffer<T> rhs_diagonal_;
  /// With Robin faces as well: rhs_keep_ - c_i (rhs_base_), the faces' term at scale 1
  /// (op::FluxLevel::diagonal, robin_) and the scale rhs_diagonal_ = rhs_base_ + scale robin_
  /// holds (rhs_robin_; NaN before the first step).
  Buffer<T> rhs_base_, robin_;
  double rhs_robin_ = std::numeric_limits<double>::quiet_NaN();
  double best_ = 0;  // the step's best residual so far, reached at cycle best_at_
  std::int64_t best_at_ = 0;
};

}  // namespace

template <typename T>
std::unique_ptr<StepOperator<T>> flux_step(const problem::Problem& p, Backend<T>& backend,
                                           const StepFields<T>& fields) {
  return std::make_unique<FluxStep<T>>(p, *p.medium, backend, fields);
}

template std::unique_ptr<StepOperator<float>> flux_step(const problem::Problem&, Backend<float>&,
                                                        const StepFields<float>&);
template std::unique_ptr<StepOperator<double>> flux_step(const problem::Problem&, Backend<double>&,
                                                         const StepFields<double>&);

}  // namespace fdsolve::heat
