// One implicit heat step by multigrid: backward Euler (I - dt k L) u' = u + dt q(t') or
// Crank-Nicolson (I - dt/2 k L) u' = (I + dt/2 k L) u + dt (q(t) + q(t'))/2, i.e. the shifted
// operator A = I - beta L of multigrid/stencil_hierarchy.hpp with beta = dt k (BE) or dt k / 2 (CN).
// A capacity that is a number c divides the equation: dt stands for dt / c throughout. The right-hand
// side is built on the backend by one stencil sweep of the old u; the cycles then run on u
// itself (warm start: the old u is the first guess) until the step's residual is small enough.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "multigrid/stencil_hierarchy.hpp"
#include "problem/boundary_conditions.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

template <typename T>
class ImplicitStep {
 public:
  /// The fine fields u (`cur`) and its second buffer (`next`) belong to the caller and must
  /// outlive this object; `boundaries` fills their ghosts and writes their Dirichlet values.
  /// Over several ranks, `ranks` splits the levels (its split's level 0 is the box of `cur`)
  /// and `halo` exchanges the fine faces; the residual norms are merged over the ranks.
  ImplicitStep(const Case& c, Backend<T>& backend, KernelId kernel,
               std::vector<multigrid::LevelGeometry> levels, Boundaries<T>& boundaries, Buffer<T>& cur,
               Buffer<T>& next, const multigrid::LevelRanks& ranks, HaloExchange<T>& halo);

  /// Sets the operator of a step of `dt` by backward Euler or Crank-Nicolson (the cycles are
  /// recorded again only when the shift changes: a backward-Euler step of dt / 2 has the
  /// shift of a Crank-Nicolson step of dt).
  void set_step(double dt, bool backward_euler);
  /// The step from t to t_next = t + dt (set_step first): builds the right-hand side from
  /// the old u (ghosts at t), runs plan.after_rhs, writes the Dirichlet values at t_next into
  /// both fine buffers, sets the Neumann gradients to t_next and runs cycles until the
  /// residual is at most max(absolute_tolerance, tolerance * residual of the old u), or
  /// stalls, or max_iterations cycles; the first plan.unchecked_cycles without waiting.
  StepSolve step(double t, double t_next, const StepPlan& plan);
  /// The extrapolated first guess from u and the earlier steps (extrapolate_start in
  /// step_solve.hpp) on the nodes the step solves for (held nodes keep theirs).
  void extrapolate(Buffer<T>& u, const std::vector<const Buffer<T>*>& earlier,
                   const std::vector<double>& c);

  const multigrid::StencilHierarchy<T>& cycles() const { return cycles_; }
  /// Times the cycles' operations per level (multigrid::StencilHierarchy::time_levels).
  void time_levels() { cycles_.time_levels(); }
  /// Seconds in the collectives that merge the residual norms over the ranks.
  double reduce_seconds() const { return reduce_seconds_; }

 private:
  /// The source term of the right-hand side, rhs_scale * dt * (q(t) + q(t_next)) / 2 (CN) or
  /// rhs_scale * dt * q(t_next) (BE), in backend memory; null for a constant source.
  const T* source_term(double t, double t_next);
  /// q at t and t_next, unscaled, on the host: q_[0] and q_[1]. A step's t is the last one's
  /// t_next, so CN evaluates q once per step.
  void load_source(double t, double t_next);
  void record();

  const Case& c_;
  Backend<T>& backend_;
  Boundaries<T>& boundaries_;
  Buffer<T>& cur_;
  Buffer<T>& next_;
  parallel::Comm comm_;
  HaloExchange<T>& halo_;
  Subdomain sub_;
  Layout L_;
  Box box_;
  KernelId kernel_;
  bool backward_euler_ = false;  // the current step's kind (set_step)
  multigrid::StencilHierarchy<T> cycles_;
  double dt_ = -1;
  double beta_ = -1;
  double reduce_seconds_ = 0;
  double rhs_scale_ = 0;
  StencilWeights rhs_weights_;  // of the sweep that builds g from the old u
  Buffer<T> g_;                 // the fine right-hand side g = rhs_scale * f
  Buffer<T> source_;            // the source term of g (only for a source that varies)
  std::vector<double> q_[2];
  double q_time_[2] = {-1, -1};
  bool q_loaded_[2] = {false, false};
  double source_dt_ = -1, source_t_ = -1, source_t_next_ = -1;
  bool source_backward_euler_ = false;
  std::unique_ptr<Replay> rest_of_cycle_;
  std::unique_ptr<Replay> fmg_;  // full multigrid, recorded likewise
};

}  // namespace fdsolve::heat
