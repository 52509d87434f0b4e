// Stops a loop makes besides convergence, divergence and max_iterations: a multigrid solve
// whose cycles no longer reduce the residual (stalled), and the wall-time limit.
#pragma once

#include <chrono>
#include <string>

#include "case.hpp"

namespace fdsolve {

/// A cycle whose residual norm is above this fraction of the previous cycle's makes no progress.
inline constexpr double kStallFactor = 0.9;
/// This many such cycles in a row stop a multigrid solve as stalled.
inline constexpr int kStallCycles = 5;

/// Counts consecutive multigrid cycles whose convergence factor (norm over the previous
/// cycle's) is above kStallFactor.
class StallWatch {
 public:
  /// Takes the factor of the latest cycle (NaN, as for the initial residual, resets the count);
  /// true once kStallCycles cycles in a row were above kStallFactor.
  bool stalled(double factor);

 private:
  int run_ = 0;
};

/// The machine epsilon of the case's precision.
double precision_epsilon(const Case& c);

/// The scale of the operator A of the case's equation at one node: the sum of the absolute
/// values of its stencil weights (diagonal included), in units of 1 / h^2.
double operator_scale(const Case& c);

/// The residual |f - A u| below which rounding in the case's precision hides progress:
/// eps x |A| x |u|, |u| the largest value of the solution (`u_max`).
double rounding_floor(const Case& c, double u_max);

/// The one message of a stalled multigrid solve: the residual reached, the target, the
/// rounding floor and what to change.
std::string describe_stall(const Case& c, std::int64_t cycle, double norm, double target,
                           double u_max);

/// The smallest relative tolerance a precision can be expected to reach: 100 x its epsilon.
double reachable_tolerance(const Case& c);

/// The warning `fdsolve check` prints when solve.tolerance lies below reachable_tolerance for a
/// solve by multigrid (steady, or the implicit heat schemes' steps); "" when it does not.
std::string tolerance_warning(const Case& c, bool multigrid);

/// The wall-time limit of one run session (solve.max_wall_time or `run --time-limit`), from
/// the moment the loop starts; 0 seconds is no limit.
class WallLimit {
 public:
  explicit WallLimit(double seconds);
  bool reached() const;
  double seconds() const { return seconds_; }

 private:
  double seconds_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace fdsolve
