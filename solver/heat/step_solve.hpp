// How one implicit heat step's solve ended, as both steppers report it to the loop.
#pragma once

#include <cstdint>
#include <functional>

#include "backend.hpp"
#include "flux_operator.hpp"

namespace fdsolve::heat {

/// norms: of the final residual f - A u' (the history row's).
struct StepSolve {
  SweepStats residual;      // the final residual's statistics (norms of f - A u')
  double first_norm = 0;    // the chosen norm of the residual of the old u (the warm start)
  double target = 0;        // max(absolute_tolerance, tolerance * first_norm)
  std::int64_t cycles = 0;  // cycles (or CG iterations) taken; a full multigrid start is one
  bool converged = false;   // final norm <= target
  bool stalled = false;     // stopped because the residual stopped falling (rounding level)
  std::int64_t surplus = 0; // unchecked cycles run after the residual had met its target
};

/// What the loop asks of a step beyond its times.
struct StepPlan {
  /// A step of backward Euler (the scheme's, or one of Crank-Nicolson's start) rather than of
  /// Crank-Nicolson.
  bool backward_euler = false;
  /// Run once the right-hand side is built from the old u, before anything changes u (the
  /// loop keeps u for the next step's extrapolation).
  std::function<void()> after_rhs;
  /// When set, replaces the interior of u by a better first guess (the loop's extrapolation
  /// from the last two steps) once the residual of the old u is known: the step's tolerance
  /// stays relative to that residual, about the step's change, so that a better guess saves
  /// cycles instead of tightening the target.
  std::function<void()> start_guess;
  /// Cycles to run before the host first looks at a residual (their norms are collected
  /// afterwards, at one wait): the loop's prediction from the last steps. The step is the one
  /// the host would make checking every cycle as long as this does not exceed the cycles the
  /// step needs; beyond, the surplus cycles are counted and reported.
  int unchecked_cycles = 0;
};

/// A step's extrapolated first guess on `box` (nodes marked in `held_face` keep theirs), from
/// u = u^n and the earlier steps u1 = u^(n-1), u2 = u^(n-2):
///  - u2 null: u + ratio (u - u1), ratio = dt / dt of the last step (linear);
///  - u2 given (three steps of one dt): u + u1 - u2, whose error per mode of factor g per step
///    is (g - 1)^2 (g + 1) u2: second order for the smooth modes (g near 1) like the linear
///    guess, and zero for the modes Crank-Nicolson flips from step to step (g near -1), which
///    the linear guess doubles. A jump in the data leaves such modes behind, and the residual,
///    which weighs them by the operator's largest eigenvalues, would otherwise be all theirs.
template <typename T>
void extrapolate_start(Backend<T>& backend, Buffer<T>& u, const Buffer<T>& u1, const Buffer<T>* u2,
                       double ratio, const Layout& layout, const Box& box,
                       const T* held_face = nullptr) {
  LinearCombinationArgs<T> a;  // y = a x + b y
  a.y = u.data();
  a.x = u1.data();
  a.a = u2 ? 1.0 : -ratio;
  a.b = u2 ? 1.0 : 1.0 + ratio;
  a.held_face = held_face;
  a.layout = layout;
  a.box = box;
  backend.combine(a);
  if (!u2) return;
  a.x = u2->data();
  a.a = -1.0;
  a.b = 1.0;
  backend.combine(a);
}

}  // namespace fdsolve::heat
