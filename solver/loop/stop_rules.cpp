// The stop rules' decisions and messages (see stop_rules.hpp).
#include "stop_rules.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "problem/weights.hpp"
#include "run_checks.hpp"

namespace fdsolve {

bool DivergenceStop::diverged(double norm, double reference, const SweepStats& stats,
                              const Diagnostics* diag) const {
  return fdsolve::diverged(norm, limit(reference), stats, diag);
}

std::string describe_krylov_stall(const Case& c, std::int64_t it, double norm,
                                  const KrylovStall& stall, double target) {
  return fmt::format(
      "conjugate gradients stalled at iteration {}: the residual ({} norm) {:.3e} has not "
      "fallen below 0.9 x its best {:.3e} for {} iterations and stays above the target "
      "{:.3e}. Rounding limits it: the floor, about eps x |A| x |u|, grows with the "
      "coefficient's contrast; use a larger solve.tolerance (or solve.absolute_tolerance "
      "above that floor){}",
      it, c.solve.norm == NormKind::L2 ? "l2" : "linf", norm, stall.best(), stall.since(), target,
      c.precision == Precision::Float ? ", or precision: double" : "");
}

bool StallWatch::stalled(double factor) {
  if (std::isnan(factor)) {
    run_ = 0;
    return false;
  }
  run_ = factor > kStallFactor ? run_ + 1 : 0;
  return run_ >= kStallCycles;
}

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

double rounding_floor(const Case& c, double u_max) {
  return precision_epsilon(c) * operator_scale(c) * std::abs(u_max);
}

std::string describe_stall(const Case& c, std::int64_t cycle, double norm, double target,
                           double u_max) {
  const bool single = c.precision == Precision::Float;
  const double floor = rounding_floor(c, u_max);
  std::string text = fmt::format(
      "multigrid stalled at cycle {}: the residual ({} norm) {:.3e} has fallen by less than a "
      "factor {:g} per cycle for {} cycles and stays above the target {:.3e}. ",
      cycle, c.solve.norm == NormKind::L2 ? "l2" : "linf", norm, kStallFactor, kStallCycles,
      target);
  text += fmt::format(
      "The likely reason: {} rounding limits the residual to about eps x |A| x |u| = {:.1e} x "
      "{:.3g} x {:.3g} = {:.2e}",
      single ? "float" : "double", precision_epsilon(c), operator_scale(c), std::abs(u_max),
      floor);
  text += single ? "; use precision: double, or a larger solve.tolerance (or "
                   "solve.absolute_tolerance above that floor)"
                 : "; use a larger solve.tolerance (or solve.absolute_tolerance above that floor)";
  return text;
}

double reachable_tolerance(const Case& c) { return 100 * precision_epsilon(c); }

std::string tolerance_warning(const Case& c, bool multigrid) {
  if (!multigrid || c.solve.tolerance <= 0 || c.solve.tolerance >= reachable_tolerance(c))
    return {};
  const bool single = c.precision == Precision::Float;
  return fmt::format(
      "solve.tolerance {:g} lies below what {} precision can reach (about 100 x its machine "
      "epsilon = {:.1e}): multigrid will stall at its rounding floor and stop with exit 3; "
      "{}",
      c.solve.tolerance, single ? "float" : "double", reachable_tolerance(c),
      single ? "use precision: double or a tolerance of at least " +
                   fmt::format("{:.1e}", reachable_tolerance(c))
             : "use a tolerance of at least " + fmt::format("{:.1e}", reachable_tolerance(c)));
}

WallLimit::WallLimit(double seconds)
    : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}

bool WallLimit::reached() const {
  if (!(seconds_ > 0)) return false;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
         seconds_;
}

}  // namespace fdsolve
