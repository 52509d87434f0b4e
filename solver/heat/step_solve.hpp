// How one implicit heat step's solve ended, as both steppers report it to the loop.
#pragma once

#include <cstdint>

#include "backend.hpp"

namespace fdsolve::heat {

/// norms: of the final residual f - A u' (the history row's).
struct StepSolve {
  SweepStats residual;      // the final residual's statistics (norms of f - A u')
  double first_norm = 0;    // the chosen norm of the residual of the old u (the warm start)
  double target = 0;        // max(absolute_tolerance, tolerance * first_norm)
  std::int64_t cycles = 0;  // cycles (or CG iterations) taken; a full multigrid start is one
  bool converged = false;   // final norm <= target
  bool stalled = false;     // stopped because the residual stopped falling (rounding level)
};

}  // namespace fdsolve::heat
