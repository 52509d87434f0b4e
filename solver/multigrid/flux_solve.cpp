// See flux_solve.hpp.
#include "flux_solve.hpp"

#include <spdlog/spdlog.h>

#include "case_reader.hpp"

#include "cycle_iteration.hpp"
#include "flux_on_ranks.hpp"
#include "cycles_detail.hpp"
#include "multigrid_solve.hpp"
#include "steady_solve.hpp"
#include "loop/run_clock.hpp"
#include "operator/flux_levels.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"

namespace fdsolve::multigrid {

template <typename T>
FluxIteration<T>::FluxIteration(const FineFlux<T>& fine, FluxPreconditioner<T>& cycles,
                                Backend<T>& backend, Part part, const T* f, double f_constant,
                                bool cg, FineHalo fine_halo)
    : fine_(fine),
      cycles_(cycles),
      backend_(backend),
      flux_(require_flux_operations(backend)),
      layout_(part.layout),
      box_(part.box),
      halo_(part.halo),
      f_(f),
      f_constant_(f ? 0.0 : f_constant),
      cg_(cg),
      fine_halo_(std::move(fine_halo)),
      rz_dot_(part.comm),
      pq_dot_(part.comm),
      updated_dot_(part.comm),
      true_dot_(part.comm) {
  const LevelGeometry& g = fine.geometry;
  homogeneous_ = detail::homogeneous_rules<T>(g, layout_, part.sub);
  dot_.layout = layout_;
  dot_.box = box_;
  // Half weights on the grid's own Neumann faces, not on the faces between ranks.
  for (int f = 0; f < 2 * g.dims; ++f)
    dot_.half[f] = part.sub.physical(f) && g.faces[f] == BoundaryType::Neumann;
  for (auto* b : {&r_, &s_, &z_, &p_, &q_}) {
    *b = backend.allocate(layout_.size);
    backend.zero(*b);
  }
}

template <typename T>
SweepStats FluxIteration<T>::probe(Buffer<T>& u, Buffer<T>& /*next*/) {
  fine_halo_(u);
  SweepArgs<T> a;
  a.in = u.data();
  a.out = r_.data();
  a.source_field = f_;
  a.weights.source = f_constant_;
  a.layout = layout_;
  a.box = box_;
  a.flux = fine_.op(0.0, 1.0, 0.0);
  return backend_.sweep_with_stats(a, KernelId{layout_.dims, 0});
}

template <typename T>
void FluxIteration<T>::finish_cycle(Buffer<T>& u, Buffer<T>& /*next*/) {
  LinearCombinationArgs<T> c;
  c.layout = layout_;
  c.box = box_;
  c.held_face = fine_.held_marker();
  if (!cg_) {
    cycles_.precondition(r_, z_);
    c.y = u.data();
    c.x = z_.data();
    flux_.combine(c);  // u += z
    return;
  }
  // CG's own residual, updated by the steps (r -= alpha q), which keeps the search directions
  // conjugate to rounding; the probe's true residual starts it and decides convergence.
  if (rz_ == 0) backend_.copy(s_, r_);
  cycles_.precondition(s_, z_);
  dot_.a = s_.data();
  dot_.b = z_.data();
  const double rz = rz_dot_(flux_, dot_);
  c.y = p_.data();
  c.x = z_.data();
  c.a = 1.0;
  c.b = rz_ > 0 ? rz / rz_ : 0.0;  // p = z + beta p
  flux_.combine(c);
  rz_ = rz;
  // q = A p: p holds zero on the Dirichlet and held nodes; its ghosts fold homogeneously and
  // come from the other ranks.
  detail::fill_and_exchange(backend_, homogeneous_, halo_, p_);
  SweepArgs<T> a;
  a.in = p_.data();
  a.out = q_.data();
  a.layout = layout_;
  a.box = box_;
  a.flux = fine_.op(0.0, -1.0, 0.0);
  backend_.sweep(a, KernelId{layout_.dims, 0});
  dot_.a = p_.data();
  dot_.b = q_.data();
  const double pq = pq_dot_(flux_, dot_);
  if (!(pq > 0)) {  // no progress possible along p (converged to rounding): restart
    rz_ = 0;
    return;
  }
  c.y = u.data();
  c.x = p_.data();
  c.a = rz / pq;
  c.b = 1.0;
  flux_.combine(c);  // u += alpha p
  c.y = s_.data();
  c.x = q_.data();
  c.a = -rz / pq;
  flux_.combine(c);  // s -= alpha q
}

template <typename T>
bool FluxIteration<T>::at_rounding_floor() {
  if (!cg_ || rz_ == 0) return false;
  dot_.a = dot_.b = s_.data();
  const double updated = updated_dot_(flux_, dot_);
  dot_.a = dot_.b = r_.data();
  const double true_residual = true_dot_(flux_, dot_);
  return updated < 0.01 * true_residual;  // squares: a tenth of the norm
}

template class FluxIteration<float>;
template class FluxIteration<double>;

namespace {

/// The flux form's side of a steady solve (steady_solve.hpp): the run's split of the fine grid
/// with the cycles on rank 0 (FluxCyclesOnRanks), the right-hand side f itself, multigrid as a
/// stationary iteration or as the preconditioner of conjugate gradients (FluxIteration), its
/// float cycles as that preconditioner.
template <typename T>
class FluxSteady final : public SteadyOperator<T> {
 public:
  FluxSteady(const problem::Problem& p, Backend<T>& backend, output::RunOutput& out,
             const SolveOptions& options)
      : p_(p), c_(p.c), backend_(backend), out_(out), options_(options) {}

  std::string kernel() const override { return "flux"; }
  const char* iteration_name() const override { return "iteration"; }
  double rhs_scale() const override { return 1.0; }

  SolveResult solve(const SteadyFields<T>& f, SolveResult r) override {
    const parallel::Comm& comm = options_.comm;
    FluxCyclesOnRanks<T> cycles(c_, p_.levels, *p_.medium, backend_, comm, p_.decomposition, 0.0,
                                1.0, c_.solve.multigrid.float_cycles);
    RunClock::get().mark("hierarchy ready");
    const bool cg = p_.method == problem::Method::ConjugateGradients;
    FluxIteration<T> iteration(cycles.fine(), cycles.preconditioner(), backend_,
                               {p_.decomposition.sub, p_.layout, p_.box, &f.halo, comm}, f.f,
                               f.f_constant, cg, [&f](Buffer<T>& x) { f.fill_ghosts(x); });
    MultigridSpec spec = c_.solve.multigrid;
    spec.fmg = false;  // the flux path starts from the initial field (f.state.fmg_start false)
    const auto& levels = cycles.levels();
    spdlog::info("{}{}{}: {} levels ({}), coarsest {} solved exactly{}; {} held nodes",
                 cg ? "conjugate gradients preconditioned by " : "",
                 c_.solve.multigrid.float_cycles && std::is_same_v<T, double> ? "float " : "",
                 describe_cycles(spec), levels.size(),
                 cycles.galerkin() ? "Galerkin coarse operators" : "averaged face coefficients",
                 fmt::join(levels.back().n.begin(), levels.back().n.begin() + c_.grid.dims, "x"),
                 comm.several() ? ", the cycles on rank 0" : "", p_.medium->held_count);
    return solve_by_cycles(c_, backend_, out_, options_, iteration, f.state, r);
  }

 private:
  const problem::Problem& p_;
  const Case& c_;
  Backend<T>& backend_;
  output::RunOutput& out_;
  const SolveOptions& options_;
};

}  // namespace

template <typename T>
std::unique_ptr<SteadyOperator<T>> flux_steady(const problem::Problem& p, Backend<T>& backend,
                                               output::RunOutput& out,
                                               const SolveOptions& options) {
  return std::make_unique<FluxSteady<T>>(p, backend, out, options);
}

template std::unique_ptr<SteadyOperator<float>> flux_steady<float>(const problem::Problem&,
                                                                   Backend<float>&,
                                                                   output::RunOutput&,
                                                                   const SolveOptions&);
template std::unique_ptr<SteadyOperator<double>> flux_steady<double>(const problem::Problem&,
                                                                     Backend<double>&,
                                                                     output::RunOutput&,
                                                                     const SolveOptions&);

}  // namespace fdsolve::multigrid
