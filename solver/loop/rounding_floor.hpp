// The rounding floor of a steady solve: the residual below which rounding in the case's
// precision hides progress, estimated before the solve (check's and the run's warning) and
// measured where a solve stops falling (the stall rules, stop_rules.hpp), where reaching it
// ends the solve as converged.
#pragma once

#include <string>

#include "case.hpp"

namespace fdsolve {

/// The machine epsilon of the case's precision.
double precision_epsilon(const Case& c);

/// The scale of the operator A of the case's equation at one node with the coefficient's
/// constant value (1 where it varies): the sum of the absolute values of its stencil weights
/// (diagonal included), in units of 1 / h^2.
double operator_scale(const Case& c);

/// The smallest and largest value of the operator's coefficient (problem.coefficient; heat:
/// problem.diffusivity).
struct CoefficientRange {
  double min = 1;
  double max = 1;
  double contrast() const { return max / min; }
};

/// The coefficient's range over the grid: the number, or the resolved medium's values
/// (op::resolved_medium, evaluated once per case).
CoefficientRange coefficient_range(const Case& c);

/// |A|, the largest absolute row sum of the case's operator: operator_scale with the
/// coefficient's largest value (`range`). A face of the flux form is a harmonic mean of two
/// node values, never above the larger, so this bounds every row.
double operator_norm(const Case& c, const CoefficientRange& range);

/// eps x |A| x |u| with |A| = operator_norm(c, coefficient_range(c)) and |u| = |u_max|.
double rounding_floor(const Case& c, double u_max);

/// A stalled residual within this factor of the floor (max norms) has reached it.
inline constexpr double kFloorBand = 10;
/// ... and only where it has also fallen to this fraction of its reference at least: a floor
/// near the reference itself (float at a high contrast) leaves no answer to speak of.
inline constexpr double kFloorProgress = 0.1;

/// The floor of one steady solve, fixed once its operator is known: eps x |A| x |u| in the max
/// norm. The computed residual f - A u of any u carries rounding errors of up to about that
/// much at a node, and so does the residual of the exact answer once rounded, so a residual
/// there cannot fall further whatever the iteration does.
class RoundingFloor {
 public:
  explicit RoundingFloor(const Case& c);
  RoundingFloor(const Case& c, const CoefficientRange& range);

  double epsilon() const { return epsilon_; }
  double operator_norm() const { return operator_norm_; }
  /// The floor for u whose largest value is `u_max`, in the max norm.
  double at(double u_max) const;
  /// Whether a residual that stopped falling (max norm `linf`, chosen norm `norm` against the
  /// tolerance's reference `reference`) stopped at the floor.
  bool reached(double linf, double u_max, double norm, double reference) const;
  /// "eps x |A| x |u| = 2.2e-16 x 1.31e+11 x 0.00995 = 2.90e-07"
  std::string describe(double u_max) const;

 private:
  double epsilon_;
  double operator_norm_;
};

/// The relative residual a steady solve of `c` can be expected to reach at best, estimated
/// before it runs from eps x |A| |u| / the reference. With a source: eps x contrast x
/// |A| / lambda_min, the operator's condition number (its lowest eigenvalue from the box's
/// extent and its Dirichlet faces) times the coefficient's contrast. Driven by boundary and
/// held data alone (laplace, or a source of 0): eps x contrast x 2 dims x sqrt(n), n the
/// most nodes along an axis (the data's residual lies on a layer of nodes beside the faces).
double relative_floor_estimate(const Case& c, double contrast);

/// The warning `fdsolve check` and the run's first lines give when solve.tolerance lies below
/// relative_floor_estimate for a steady solve by multigrid (implicit heat's steps: below 100
/// x eps); "" when it does not. `range`: the coefficient's (coefficient_range, or check's
/// samples).
std::string tolerance_warning(const Case& c, bool multigrid, const CoefficientRange& range);

}  // namespace fdsolve
