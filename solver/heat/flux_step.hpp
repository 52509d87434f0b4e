// One implicit heat step with the variable-coefficient operator A = -div(k grad) of
// kernels/flux_operator.hpp (a diffusivity field, held nodes, a capacity field):
//   backward Euler   (I + dt A) u' = u + dt q(t')
//   Crank-Nicolson   (I + dt/2 A) u' = (I - dt/2 A) u + dt (q(t) + q(t')) / 2
// With a capacity C that varies, C in place of I (FluxOperator::diagonal on the fine level and
// the averaged ones; the Galerkin levels' R C P by probing); a number c: dt / c in place of dt.
// The shifted operator is solved by multigrid (FluxHierarchy, Galerkin coarse operators of the
// shifted operator), as a stationary iteration or as the preconditioner of conjugate gradients
// (solve.krylov), warm-started from the old u. Held nodes keep their values, or take those at
// t' where they depend on t; Dirichlet faces take their values at t'. Over several ranks each holds its part of u and of the fine
// operator, and rank 0 runs the cycles (multigrid/flux_on_ranks.hpp).
#pragma once

#include <limits>
#include <vector>

#include "multigrid/flux_hierarchy.hpp"
#include "multigrid/flux_on_ranks.hpp"
#include "multigrid/flux_solve.hpp"
#include "operator/held_values.hpp"
#include "operator/medium.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem/boundary_conditions.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

template <typename T>
class FluxImplicitStep {
 public:
  /// `cur` and `next` (the loop's fields on this rank's part `d` of the grid) and
  /// `boundaries`, `halo` must outlive this object.
  FluxImplicitStep(const Case& c, const op::Medium& m, Backend<T>& backend,
                   const parallel::Comm& comm, const parallel::Decomposition& d,
                   Boundaries<T>& boundaries, HaloExchange<T>& halo, Buffer<T>& cur,
                   Buffer<T>& next);

  /// Sets the operator of a step of `dt` by backward Euler or Crank-Nicolson (a no-op when
  /// both are the current ones).
  void set_step(double dt, bool backward_euler);
  /// The step from t to t_next (see the top of this file), to max(absolute_tolerance,
  /// tolerance * residual of the old u), a stall, or solve.max_iterations iterations;
  /// plan.after_rhs runs once the right-hand side is built. Every iteration is checked (the
  /// conjugate gradients need their inner products on the host anyway).
  StepSolve step(double t, double t_next, const StepPlan& plan);
  /// The extrapolated first guess from u and the earlier steps (extrapolate_start in
  /// step_solve.hpp) on the nodes the step solves for (held nodes keep theirs).
  void extrapolate(Buffer<T>& u, const std::vector<const Buffer<T>*>& earlier,
                   const std::vector<double>& c);

 private:
  /// The source term dt q(t') (BE) or dt (q(t) + q(t')) / 2 (CN) in backend memory; null when
  /// the case has no source.
  const T* source_term(double t, double t_next);

  const Case& c_;
  Backend<T>& backend_;
  parallel::Comm comm_;
  Boundaries<T>& boundaries_;
  HaloExchange<T>& halo_;
  Buffer<T>& cur_;
  Buffer<T>& next_;
  Layout L_;
  Box box_;
  Subdomain sub_;
  bool backward_euler_ = false;  // the current step's kind (set_step)
  double dt_ = -1;
  double beta_ = -1;
  bool capacity_;  // a capacity that varies: the operator C + beta A
  multigrid::FluxCyclesOnRanks<T> cycles_;
  op::HeldValues<T> held_;  // the held values that depend on t
  Buffer<T> g_;             // the right-hand side
  Buffer<T> source_;  // the source term (when the case has a source)
  /// A capacity that varies: the right-hand side's sweep keeps rhs_keep_ u (2 max c) with the
  /// diagonal rhs_keep_ - c_i.
  double rhs_keep_ = 1;
  Buffer<T> rhs_diagonal_;
  /// With Robin faces as well: rhs_keep_ - c_i (rhs_base_), the faces' term at scale 1
  /// (op::FluxLevel::diagonal, robin_) and the scale rhs_diagonal_ = rhs_base_ + scale robin_
  /// holds (rhs_robin_; NaN before the first step).
  Buffer<T> rhs_base_, robin_;
  double rhs_robin_ = std::numeric_limits<double>::quiet_NaN();
  double source_dt_ = -1, source_t_ = -1, source_t_next_ = -1;
  bool source_backward_euler_ = false;
  multigrid::FluxIteration<T> iteration_;
};

}  // namespace fdsolve::heat
