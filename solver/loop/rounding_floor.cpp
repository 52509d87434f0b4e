// The rounding floor's estimates (see rounding_floor.hpp).
#include "rounding_floor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

#include "operator/medium.hpp"
#include "problem/weights.hpp"

namespace fdsolve {
namespace {

/// Whether operator_scale already holds the coefficient: a steady equation's one number.
bool scale_holds_coefficient(const Case& c) {
  return c.problem.equation != Equation::Heat && c.problem.coefficient.is_constant();
}

}  // namespace

double precision_epsilon(const Case& c) {
  return c.precision == Precision::Float ? std::numeric_limits<float>::epsilon()
                                         : std::numeric_limits<double>::epsilon();
}

double operator_scale(const Case& c) {
  // The Jacobi weights w of A u = f are A's neighbour weights over its diagonal, and the
  // source scale is 1 / diagonal: sum |A| = (1 + sum |w|) / source_scale.
  const EquationWeights eq = equation_weights(c);
  const StencilWeights& w = eq.weights;
  double neighbours = 0;
  for (int a = 0; a < c.grid.dims; ++a) neighbours += 2 * std::abs(w.face[a]);
  if (w.points >= 19) neighbours += 12 * std::abs(w.edge);
  if (w.points == 27) neighbours += 8 * std::abs(w.corner);
  return (std::abs(w.center) + 1.0 + neighbours) / eq.source_scale;
}

CoefficientRange coefficient_range(const Case& c) {
  if (op::may_need_flux(c)) {
    const auto m = op::resolved_medium(c);
    return {m->beta_min, m->beta_max};
  }
  if (scale_holds_coefficient(c))
    return {c.problem.coefficient.constant, c.problem.coefficient.constant};
  return {};
}

double operator_norm(const Case& c, const CoefficientRange& range) {
  return operator_scale(c) * (scale_holds_coefficient(c) ? 1.0 : range.max);
}

double rounding_floor(const Case& c, double u_max) { return RoundingFloor(c).at(u_max); }

RoundingFloor::RoundingFloor(const Case& c) : RoundingFloor(c, coefficient_range(c)) {}

RoundingFloor::RoundingFloor(const Case& c, const CoefficientRange& range)
    : epsilon_(precision_epsilon(c)), operator_norm_(fdsolve::operator_norm(c, range)) {}

double RoundingFloor::at(double u_max) const {
  return epsilon_ * operator_norm_ * std::abs(u_max);
}

bool RoundingFloor::reached(double linf, double u_max, double norm, double reference) const {
  const double floor = at(u_max);
  return floor > 0 && linf <= kFloorBand * floor && norm <= kFloorProgress * reference;
}

std::string RoundingFloor::describe(double u_max) const {
  return fmt::format("eps x |A| x |u| = {:.1e} x {:.3g} x {:.3g} = {:.2e}", epsilon_,
                     operator_norm_, std::abs(u_max), at(u_max));
}

double relative_floor_estimate(const Case& c, double contrast) {
  const double eps_contrast = precision_epsilon(c) * std::max(1.0, contrast);
  const bool sourced = c.problem.equation == Equation::Poisson &&
                       !(c.problem.source.is_constant() && c.problem.source.constant == 0);
  if (!sourced) {
    // Boundary and held data alone drive the solve: |u| is at most the data's, the reference
    // is the residual they leave beside the faces, about coefficient / h^2 x the data on a
    // layer of nodes (a fraction 1 / n of them in the l2 norm), and |A| is 2 dims x the
    // largest coefficient / h^2.
    std::int64_t most = 1;
    for (int a = 0; a < c.grid.dims; ++a) most = std::max(most, c.grid.points[a]);
    return eps_contrast * 2 * c.grid.dims * std::sqrt(static_cast<double>(most));
  }
  // A source drives it: eps x |A| |u| / |f| is at most eps x the condition number. The lowest eigenvalue of -lap on the box: (pi / L)^2 per axis with Dirichlet faces at both
  // ends, (pi / 2L)^2 with one; an axis without any adds nothing. Where no face is Dirichlet
  // (held nodes pin u), the lowest mode of the longest axis with one is the guess.
  const double pi = std::numbers::pi;
  double lowest = 0, longest = 0;
  for (int a = 0; a < c.grid.dims; ++a) {
    const double length = c.grid.extent[a];
    longest = std::max(longest, length);
    const int fixed = (c.boundary[2 * a].type == BoundaryType::Dirichlet ? 1 : 0) +
                      (c.boundary[2 * a + 1].type == BoundaryType::Dirichlet ? 1 : 0);
    if (fixed > 0 && length > 0) lowest += std::pow(pi / (fixed == 2 ? length : 2 * length), 2);
  }
  if (!(lowest > 0)) lowest = longest > 0 ? std::pow(pi / (2 * longest), 2) : 1.0;
  const double unit = operator_scale(c) /
                      (scale_holds_coefficient(c) ? c.problem.coefficient.constant : 1.0);
  return eps_contrast * unit / lowest;
}

std::string tolerance_warning(const Case& c, bool multigrid, const CoefficientRange& range) {
  if (!multigrid || c.solve.tolerance <= 0 || c.solve.tolerance_discretization) return {};
  const bool single = c.precision == Precision::Float;
  const char* precision = single ? "float" : "double";
  if (c.problem.equation == Equation::Heat) {
    // An implicit step's reference is its own residual before its cycles: 100 x eps.
    const double reachable = 100 * precision_epsilon(c);
    if (c.solve.tolerance >= reachable) return {};
    return fmt::format(
        "solve.tolerance {:g} lies below what {} precision can reach (about 100 x its machine "
        "epsilon = {:.1e}): the steps' cycles will stall at their rounding floor; use {}a "
        "tolerance of at least {:.1e}",
        c.solve.tolerance, precision, reachable, single ? "precision: double or " : "",
        reachable);
  }
  const double estimate = relative_floor_estimate(c, range.contrast());
  if (c.solve.tolerance >= estimate) return {};
  if (estimate >= kFloorProgress)
    return fmt::format(
        "solve.tolerance {:g} lies below the estimated rounding floor of this case in {} "
        "precision, about {:.1e} of the reference (coefficient contrast {:.3g}): {} precision "
        "cannot resolve this case, and the solve will stop as stalled (exit 3){}",
        c.solve.tolerance, precision, estimate, range.contrast(), precision,
        single ? "; use precision: double" : "");
  std::string text = fmt::format(
      "solve.tolerance {:g} lies below the estimated rounding floor of this case in {} "
      "precision, about {:.1e} of the reference (eps {:.1e} x coefficient contrast {:.3g} x "
      "{:.3g}): the solve will stop where rounding holds its residual up, and ends there as "
      "converged at the rounding floor (summary.json: at_rounding_floor)",
      c.solve.tolerance, precision, estimate, precision_epsilon(c), range.contrast(),
      estimate / (precision_epsilon(c) * std::max(1.0, range.contrast())));
  if (single) {
    Case in_double = c;
    in_double.precision = Precision::Double;
    text += fmt::format("; precision: double lies at about {:.1e}",
                        relative_floor_estimate(in_double, range.contrast()));
  }
  return text;
}

}  // namespace fdsolve
