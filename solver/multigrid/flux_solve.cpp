// See flux_solve.hpp.
#include "flux_solve.hpp"

#include <spdlog/spdlog.h>

#include "case_reader.hpp"

#include "cycle_iteration.hpp"
#include "float_flux.hpp"
#include "cycles_detail.hpp"
#include "multigrid_solve.hpp"
#include "loop/run_clock.hpp"
#include "loop/start_state.hpp"
#include "operator/flux_levels.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem/boundary_conditions.hpp"
#include "problem/field_programs.hpp"

namespace fdsolve::multigrid {

template <typename T>
FluxIteration<T>::FluxIteration(const FineFlux<T>& fine, FluxPreconditioner<T>& cycles,
                                Backend<T>& backend, const Layout& L, const Box& box, const T* f,
                                double f_constant, bool cg, FineHalo fine_halo)
    : fine_(fine),
      cycles_(cycles),
      backend_(backend),
      flux_(require_flux_operations(backend)),
      layout_(L),
      box_(box),
      f_(f),
      f_constant_(f ? 0.0 : f_constant),
      cg_(cg),
      fine_halo_(std::move(fine_halo)) {
  const LevelGeometry& g = fine.geometry;
  homogeneous_ = detail::homogeneous_rules<T>(g, L, detail::whole_of(g));
  dot_.layout = L;
  dot_.box = box;
  for (int f = 0; f < 2 * g.dims; ++f) dot_.half[f] = g.faces[f] == BoundaryType::Neumann;
  for (auto* b : {&r_, &s_, &z_, &p_, &q_}) {
    *b = backend.allocate(L.size);
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
  const double rz = flux_.dot(dot_);
  c.y = p_.data();
  c.x = z_.data();
  c.a = 1.0;
  c.b = rz_ > 0 ? rz / rz_ : 0.0;  // p = z + beta p
  flux_.combine(c);
  rz_ = rz;
  // q = A p: p holds zero on the Dirichlet and held nodes; its ghosts fold homogeneously.
  HaloFillArgs<T> h = homogeneous_;
  h.field = p_.data();
  if (h.any()) backend_.fill_halo(h);
  SweepArgs<T> a;
  a.in = p_.data();
  a.out = q_.data();
  a.layout = layout_;
  a.box = box_;
  a.flux = fine_.op(0.0, -1.0, 0.0);
  backend_.sweep(a, KernelId{layout_.dims, 0});
  dot_.a = p_.data();
  dot_.b = q_.data();
  const double pq = flux_.dot(dot_);
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
  const double updated = flux_.dot(dot_);
  dot_.a = dot_.b = r_.data();
  const double true_residual = flux_.dot(dot_);
  return updated < 0.01 * true_residual;  // squares: a tenth of the norm
}

template class FluxIteration<float>;
template class FluxIteration<double>;

template <typename T>
SolveResult solve_flux_multigrid(const Case& c, const op::Medium& m, Backend<T>& backend,
                                 output::RunOutput& out, const SolveOptions& options) {
  const parallel::Decomposition d = parallel::decompose(c, {1, 1, 1}, 0);
  const Subdomain& sub = d.sub;
  const Layout L = field_layout(c, sizeof(T), sub);
  const Box box = update_box(c, sub);
  const auto levels = build_hierarchy(fine_level(c));
  SolveResult r;
  r.kernel = "flux";
  auto [cur, next, done, earlier_seconds, first_norm] =
      start_state(c, backend, L, sub, options.resume, out, r.kernel);
  r.first_norm = first_norm;
  if (options.resume) spdlog::info("resuming from iteration {}", done);
  Boundaries<T> boundaries(c, backend, L, sub);
  HaloExchange<T> halo(L, backend, options.comm, d);
  RunClock::get().mark("initial state ready");
  // The cycles in T, or in float inside the double solve (float_flux.hpp), with the fine
  // operator's faces then uploaded in double on their own.
  std::unique_ptr<FluxHierarchy<T>> same;
  std::unique_ptr<FloatFluxCycles> in_float;
  std::unique_ptr<FineFaces<T>> fine_faces;
  FluxPreconditioner<T>* cycles = nullptr;
  FineFlux<T> fine;
  bool galerkin = false;
  if constexpr (std::is_same_v<T, double>) {
    if (c.solve.multigrid.float_cycles) {
      const auto host = op::flux_levels<float>(levels, m);
      const auto fine_host = op::fine_flux_level<T>(levels[0], m, sub);
      RunClock::get().mark("face arrays built");
      in_float = std::make_unique<FloatFluxCycles>(levels, host, c.solve.multigrid, backend, L, box);
      fine_faces = std::make_unique<FineFaces<T>>(levels[0], fine_host, backend);
      cycles = in_float.get();
      fine = fine_faces->fine();
      galerkin = in_float->cycles().galerkin();
    }
  }
  if (!cycles) {
    const auto host = op::flux_levels<T>(levels, m);
    RunClock::get().mark("face arrays built");
    same = std::make_unique<FluxHierarchy<T>>(levels, host, c.solve.multigrid, backend, 0.0, 1.0);
    cycles = same.get();
    fine = same->fine();
    galerkin = same->galerkin();
  }
  RunClock::get().mark("hierarchy ready");
  Buffer<T> f;
  if (has_source_field(c)) {
    f = backend.allocate(L.size);
    load_source(c, backend, L, sub, 1.0, 0.0, f);  // evaluated on the backend
  }
  const double f_constant =
      c.problem.equation == Equation::Poisson && c.problem.source.is_constant()
          ? c.problem.source.constant
          : 0.0;
  RunClock::get().mark("source ready");
  const bool cg = flux_uses_cg(c);
  FluxIteration<T> iteration(fine, *cycles, backend, L, box, f.size() ? f.data() : nullptr,
                             f_constant, cg,
                             [&](Buffer<T>& x) { boundaries.before_sweep(x, x, 0.0, 0.0, halo); });
  MultigridSpec spec = c.solve.multigrid;
  spec.fmg = false;  // the flux path starts from the initial field
  spdlog::info("{}{}{}: {} levels ({}), coarsest {} solved exactly; {} held nodes",
               cg ? "conjugate gradients preconditioned by " : "", in_float ? "float " : "",
               describe_cycles(spec), levels.size(),
               galerkin ? "Galerkin coarse operators" : "averaged face coefficients",
               fmt::join(levels.back().n.begin(), levels.back().n.begin() + c.grid.dims, "x"),
               m.held_count);
  const FineState<T> state{cur, next, done, earlier_seconds, L, d, box, levels[0].box.cells(),
                           false};
  return solve_by_cycles(c, backend, out, options, iteration, state, r);
}

template SolveResult solve_flux_multigrid<float>(const Case&, const op::Medium&, Backend<float>&,
                                                 output::RunOutput&, const SolveOptions&);
template SolveResult solve_flux_multigrid<double>(const Case&, const op::Medium&,
                                                  Backend<double>&, output::RunOutput&,
                                                  const SolveOptions&);

}  // namespace fdsolve::multigrid
