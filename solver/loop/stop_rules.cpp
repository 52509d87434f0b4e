// The stop rules' decisions and messages (see stop_rules.hpp).
#include "stop_rules.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "run_checks.hpp"

namespace fdsolve {

bool DivergenceStop::diverged(double norm, double reference, const SweepStats& stats,
                              const Diagnostics* diag) const {
  return fdsolve::diverged(norm, limit(reference), stats, diag);
}

namespace {

const char* norm_name(const Case& c) { return c.solve.norm == NormKind::L2 ? "l2" : "linf"; }

/// Where a stalled residual lies against the rounding floor, and what to change.
/// `far`: what to change when it lies far above it.
std::string floor_clause(const Case& c, const RoundingFloor& floor, double linf, double u_max,
                         const char* far) {
  const bool single = c.precision == Precision::Float;
  const double at = floor.at(u_max);
  std::string text =
      fmt::format("; its max norm {:.3e} is {:.3g} x the {} rounding floor {}", linf,
                  at > 0 ? linf / at : 0.0, single ? "float" : "double", floor.describe(u_max));
  if (at > 0 && linf <= kFloorBand * at)
    return text + fmt::format(
                      ", which lies within a factor {:g} of the reference: {} precision cannot "
                      "resolve this case{}",
                      1 / kFloorProgress, single ? "float" : "double",
                      single ? "; use precision: double" : "");
  return text + fmt::format(": the iteration stopped converging far above rounding; {}", far);
}

}  // namespace

std::string describe_krylov_stall(const Case& c, const RoundingFloor& floor,
                                  const ResidualCheck& now, const KrylovStall& stall,
                                  double target) {
  return fmt::format(
             "conjugate gradients stalled at iteration {}: the residual ({} norm) {:.3e} has not "
             "fallen below 0.9 x its best {:.3e} for {} iterations and stays above the target "
             "{:.3e}",
             now.iteration, norm_name(c), now.norm, stall.best(), stall.since(), target) +
         floor_clause(c, floor, now.linf, now.u_max,
                      "a stronger preconditioner (more smoothing: solve.multigrid.pre_smooth, "
                      "post_smooth) or a larger solve.tolerance");
}

std::string describe_stall(const Case& c, const RoundingFloor& floor, const ResidualCheck& now,
                           double target) {
  return fmt::format(
             "multigrid stalled at cycle {}: the residual ({} norm) {:.3e} has fallen by less "
             "than a factor {:g} per cycle for {} cycles and stays above the target {:.3e}",
             now.iteration, norm_name(c), now.norm, kStallFactor, kStallCycles, target) +
         floor_clause(c, floor, now.linf, now.u_max,
                      "conjugate gradients (solve.krylov: cg), more smoothing "
                      "(solve.multigrid.pre_smooth, post_smooth) or a larger solve.tolerance");
}

std::string describe_floor_convergence(const Case& c, const RoundingFloor& floor, std::int64_t it,
                                       const ResidualCheck& at, double target) {
  const double f = floor.at(at.u_max);
  const std::string where = at.iteration == it
                                ? std::string()
                                : fmt::format(" (its best, at iteration {})", at.iteration);
  return fmt::format(
      "converged at the rounding floor at iteration {}: the target {:.3e} (solve.tolerance {:g}) "
      "lies below what {} precision resolves here; the residual ({} norm) stopped falling at "
      "{:.3e}{}, its max norm {:.3e} is {:.3g} x the floor {}",
      it, target, c.solve.tolerance, c.precision == Precision::Float ? "float" : "double",
      norm_name(c), at.norm, where, at.linf, at.linf / f, floor.describe(at.u_max));
}

bool StallWatch::stalled(double factor) {
  if (std::isnan(factor)) {
    run_ = 0;
    return false;
  }
  run_ = factor > kStallFactor ? run_ + 1 : 0;
  return run_ >= kStallCycles;
}

WallLimit::WallLimit(double seconds)
    : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}

bool WallLimit::reached() const {
  if (!(seconds_ > 0)) return false;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >=
         seconds_;
}

}  // namespace fdsolve
