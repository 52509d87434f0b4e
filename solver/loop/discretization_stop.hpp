// solve.tolerance: discretization. The solve stops once the algebraic error left in u is at
// most kFraction of the discretization error: the total error is then within 1 + kFraction of
// the converged grid's. The discretization error comes from Richardson's estimate
// (multigrid/richardson.hpp).
//
// The algebraic error left after a cycle follows from the cycle's change of u: with the cycles
// reducing the error by a factor rho each, e_k = rho e_(k-1) and u_k - u_(k-1) = e_(k-1) - e_k,
// so |e_k| = |u_k - u_(k-1)| rho / (1 - rho). rho is the cycle's residual factor, taken no
// smaller than kMinFactor: a lucky cycle must not end the solve on an optimistic estimate.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdsolve {

class DiscretizationStop {
 public:
  static constexpr double kFraction = 0.1;
  static constexpr double kMinFactor = 0.1;

  /// The estimated discretization error (Richardson's).
  void set_discretization(double estimate) { discretization_ = estimate; }

  /// The norm of the last cycle's change of u and the factor by which it reduced the residual.
  void cycle_change(double change, double factor) {
    if (!std::isfinite(factor) || !std::isfinite(change)) return;
    const double rho = std::max(factor, kMinFactor);
    algebraic_ = rho < 1 ? change * rho / (1 - rho) : std::numeric_limits<double>::infinity();
  }

  bool has_discretization() const { return std::isfinite(discretization_); }
  bool has_algebraic() const { return std::isfinite(algebraic_); }
  double discretization() const { return discretization_; }
  double algebraic() const { return algebraic_; }

  /// Whether the algebraic error is small enough against the discretization error.
  bool reached() const {
    return has_discretization() && has_algebraic() && algebraic_ <= kFraction * discretization_;
  }

 private:
  double discretization_ = std::numeric_limits<double>::quiet_NaN();
  double algebraic_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace fdsolve
