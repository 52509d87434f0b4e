// The steady variable-coefficient solve A u = f (A from op::flux_levels; its set-up is
// steady_solve.hpp's flux_steady): multigrid cycles (FluxHierarchy) as a stationary iteration,
// or as the preconditioner of conjugate gradients.
// It offers the cycle iteration (cycle_iteration.hpp) what StencilHierarchy offers (probe,
// finish_cycle), so the same iteration of the one solve loop (history, checks, checkpoints,
// signals) runs both.
#pragma once

#include <functional>
#include <memory>

#include "backend.hpp"
#include "cycle_traits.hpp"
#include "case.hpp"
#include "flux_hierarchy.hpp"
#include "loop/solve_result.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/exact_dot.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve::multigrid {

template <typename T>
class FluxIteration {
 public:
  using FineHalo = std::function<void(Buffer<T>&)>;

  /// This rank's part of the fine grid: `sub` of layout `L`, its updated nodes `box`, the
  /// exchange that fills its halo from the other ranks (null or inactive on one rank) and the
  /// ranks' communicator.
  struct Part {
    Subdomain sub;
    Layout layout;
    Box box;
    HaloExchange<T>* halo = nullptr;
    parallel::Comm comm;
  };

  /// `fine`: the operator of the solve on this rank's part (its faces in T); `cycles`: the
  /// preconditioner, one cycle (in T, or in float: float_flux.hpp; over several ranks the
  /// gathered one, gathered_preconditioner.hpp). `f`: the right-hand side as a field (the
  /// part's layout, backend memory) or, when null, `f_constant` everywhere. `cg`: conjugate
  /// gradients preconditioned by one cycle, with inner products summed exactly, so that the
  /// iterates are the same on any number of ranks.
  FluxIteration(const FineFlux<T>& fine, FluxPreconditioner<T>& cycles, Backend<T>& backend,
                Part part, const T* f, double f_constant, bool cg, FineHalo fine_halo);

  /// The residual r = f - A u of u (its norms over the nodes that are not held, and the range
  /// of u); leaves u unchanged and keeps r for finish_cycle.
  SweepStats probe(Buffer<T>& u, Buffer<T>& next);
  /// One iteration from the probed residual: u += M r (stationary) or one CG step.
  void finish_cycle(Buffer<T>& u, Buffer<T>& next);
  void cycle(Buffer<T>& u, Buffer<T>& next) {
    probe(u, next);
    finish_cycle(u, next);
  }
  void full_multigrid(Buffer<T>& u, Buffer<T>& next) { cycle(u, next); }
  /// The fine operator after its shift changed (an implicit step whose dt differs).
  void set_fine(const FineFlux<T>& fine) { fine_ = fine; }
  void set_interrupt(std::function<bool()> requested) {
    cycles_.set_interrupt(std::move(requested));
  }
  /// Conjugate gradients restart: the next step starts a new search direction (a resumed run,
  /// or the loop after an abandoned cycle).
  void restart() { rz_ = 0; }
  bool recordable() const { return false; }
  /// Whether each iteration should reduce the residual (stationary cycles): conjugate gradients
  /// minimise the error's energy, and their residual may rise for a while.
  bool monotone() const { return !cg_; }
  double residual_scale() const { return 1.0; }
  bool conjugate_gradients() const { return cg_; }
  /// Conjugate gradients: whether the true residual f - A u of the last probe is held up by
  /// rounding. In exact arithmetic CG's updated residual equals it; once the true one reaches
  /// the floor eps |A| |u| it stops falling while the updated one goes on, so an updated
  /// residual below a tenth of the true one means more iterations cannot lower the true one.
  /// Two inner products (on demand: the loop asks only once the residual has stopped falling).
  bool at_rounding_floor();

 private:
  FineFlux<T> fine_;
  FluxPreconditioner<T>& cycles_;
  Backend<T>& backend_;
  FluxOperations<T>& flux_;
  Layout layout_;
  Box box_;
  HaloExchange<T>* halo_;
  const T* f_;
  double f_constant_;
  bool cg_;
  FineHalo fine_halo_;
  HaloFillArgs<T> homogeneous_;
  DotArgs<T> dot_;
  // One per inner product: each keeps the scale of its last value (exact_dot.hpp).
  parallel::ExactDot rz_dot_, pq_dot_, updated_dot_, true_dot_;
  Buffer<T> r_, s_, z_, p_, q_;  // true residual, CG's residual, M s, direction, A p
  double rz_ = 0;  // (r, z) of the previous CG step; 0: start a new direction
};

template <typename T>
struct CycleTraits<FluxIteration<T>> {
  static constexpr bool timed_levels = false;  // one rank
  static constexpr bool prepares_start = false;
  static constexpr bool rounding_floor = true;
};

/// Whether solve.krylov resolves to conjugate gradients for a case that needs the flux
/// operator (auto: yes, the coefficient varies or nodes are held).
inline bool flux_uses_cg(const Case& c) { return c.solve.krylov != KrylovChoice::None; }

}  // namespace fdsolve::multigrid
