// One implicit heat step, backward Euler or Crank-Nicolson, over either operator form
// (step_operator.hpp):
//   backward Euler   (C + dt A) u' = C u + dt q(t')
//   Crank-Nicolson   (C + dt/2 A) u' = (C - dt/2 A) u + dt (q(t) + q(t')) / 2
// The right-hand side is built on the backend from the old u; the cycles then run on u itself,
// warm-started from the old u (or the loop's extrapolation), until the step's residual is small
// enough. Dirichlet faces and held nodes that follow t take their values at t'.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "case.hpp"
#include "step_operator.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

template <typename T>
class ImplicitStep {
 public:
  /// `fields` (the loop's u, its second buffer, their ghost fill) outlive this object; `op`
  /// works on them.
  ImplicitStep(const Case& c, Backend<T>& backend, const StepFields<T>& fields,
               std::unique_ptr<StepOperator<T>> op);

  /// Sets the operator of a step of `dt` by backward Euler or Crank-Nicolson (a no-op when both
  /// are the current ones; the cycles change only when the shift does: a backward-Euler step of
  /// dt / 2 has the shift of a Crank-Nicolson step of dt).
  void set_step(double dt, bool backward_euler);
  /// The step from t to t_next = t + dt (set_step first): builds the right-hand side from the
  /// old u (ghosts at t), runs plan.after_rhs, writes the Dirichlet and held values at t_next
  /// into both fine buffers, sets the Neumann gradients to t_next and runs cycles until the
  /// residual is at most max(absolute_tolerance, tolerance * residual of the old u), or
  /// stalls, or max_iterations cycles; the first plan.unchecked_cycles without waiting where
  /// the operator side can.
  StepSolve step(double t, double t_next, const StepPlan& plan);
  /// The extrapolated first guess from u and the earlier steps (extrapolate_start in
  /// step_solve.hpp) on the nodes the step solves for (held nodes keep theirs).
  void extrapolate(Buffer<T>& u, const std::vector<const Buffer<T>*>& earlier,
                   const std::vector<double>& c);

  /// Times the cycles' operations per level (StepOperator::time_levels); whether they are.
  bool time_levels() { return op_->time_levels(); }
  const std::vector<output::LevelSeconds>* level_seconds() const { return op_->level_seconds(); }
  /// Seconds in the collectives that merge the residual norms over the ranks.
  double reduce_seconds() const { return reduce_seconds_; }

 private:
  /// The source term rhs_scale * dt * (q(t) + q(t_next)) / 2 (CN) or rhs_scale * dt *
  /// q(t_next) (BE), q with the Robin faces' ambient term, in backend memory; null where the
  /// operator side takes no source field.
  const T* source_term(double t, double t_next);
  /// q at t_next and, with `both`, at t, unscaled, on the host: q_[1] and q_[0]. A step's t is
  /// the last one's t_next, so CN evaluates q once per step.
  void load_source(double t, double t_next, bool both);

  const Case& c_;
  Backend<T>& backend_;
  StepFields<T> f_;
  std::unique_ptr<StepOperator<T>> op_;
  bool backward_euler_ = false;  // the current step's kind (set_step)
  double dt_ = -1;
  double beta_ = -1;
  double rhs_scale_ = 0;
  double reduce_seconds_ = 0;
  Buffer<T> source_;  // the source term (only where the operator side takes it as a field)
  std::vector<double> q_[2];
  double q_time_[2] = {-1, -1};
  bool q_loaded_[2] = {false, false};
  double source_dt_ = -1, source_t_ = -1, source_t_next_ = -1;
  bool source_backward_euler_ = false;
};

}  // namespace fdsolve::heat
