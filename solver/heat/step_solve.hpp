// How one implicit heat step's solve ended, as both steppers report it to the loop.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

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

/// A step's first guess on `box` (nodes marked in `held_face` keep theirs): u <- c[0] u +
/// sum_i c[i] earlier[i - 1], the earlier steps' fields u^(n-1), u^(n-2), ... (extrapolation
/// coefficients from EarlierSteps); zero coefficients cost no pass.
template <typename T>
void extrapolate_start(Backend<T>& backend, Buffer<T>& u,
                       const std::vector<const Buffer<T>*>& earlier,
                       const std::vector<double>& c, const Layout& layout, const Box& box,
                       const T* held_face = nullptr) {
  LinearCombinationArgs<T> a;  // y = a x + b y
  a.y = u.data();
  a.held_face = held_face;
  a.layout = layout;
  a.box = box;
  double scale = c[0];  // u's coefficient, applied with the first term
  for (std::size_t i = 0; i < earlier.size(); ++i) {
    if (c[i + 1] == 0.0) continue;
    a.x = earlier[i]->data();
    a.a = c[i + 1];
    a.b = scale;
    require_flux_operations(backend).combine(a);
    scale = 1.0;
  }
}

}  // namespace fdsolve::heat
