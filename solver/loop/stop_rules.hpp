// The stop rules a solve loop holds, each an object with the state its rule needs: the
// tolerance (convergence), divergence, the stall of multigrid cycles and of conjugate gradients,
// the wall-time limit and signals (StopRequest); solve.tolerance: discretization is
// discretization_stop.hpp. The loop decides at each check in the order divergence, tolerance,
// discretization error, stall; signals and the time limit between iterations.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "case.hpp"
#include "diagnostics.hpp"
#include "rounding_floor.hpp"
#include "solve_result.hpp"
#include "stencil.hpp"

namespace fdsolve {

/// solve.tolerance and solve.absolute_tolerance: a steady solve converges once the chosen norm
/// is at most max(absolute_tolerance, tolerance x the first norm).
class ToleranceStop {
 public:
  ToleranceStop(const Case& c, double first_norm)
      : relative_(c.solve.tolerance), absolute_(c.solve.absolute_tolerance) {
    set_reference(first_norm);
  }
  /// The first norm (the relative tolerance's reference), known once the first check has run.
  void set_reference(double first_norm) { target_ = std::max(absolute_, relative_ * first_norm); }
  double target() const { return target_; }
  bool reached(double norm) const { return norm <= target_; }

 private:
  double relative_;
  double absolute_;
  double target_ = 0;
};

/// solve.divergence_factor: a check diverges when a value of u or of its update is not finite,
/// when the norm or the sum of u is not finite, or when the norm exceeds divergence_factor x its
/// reference (the first norm of a steady solve; an implicit step's residual before its cycles).
class DivergenceStop {
 public:
  explicit DivergenceStop(const Case& c) : factor_(c.solve.divergence_factor) {}
  double limit(double reference) const { return factor_ * reference; }
  /// The reference a check at `norm` is measured against: `first`, or where that is 0 (a run
  /// started at rest: heat from u = 0 driven by data that grows from 0) the first norm that is
  /// not; until one is seen, infinity (only non-finite values diverge).
  double reference(double first, double norm) {
    if (first > 0) return first;
    if (!(rest_scale_ > 0) && norm > 0 && std::isfinite(norm)) rest_scale_ = norm;
    return rest_scale_ > 0 ? rest_scale_ : std::numeric_limits<double>::infinity();
  }
  /// `diag`: the check's diagnostics, when they ran (they see non-finite nodes the norm hides).
  bool diverged(double norm, double reference, const SweepStats& stats,
                const Diagnostics* diag) const;

 private:
  double factor_;
  double rest_scale_ = 0;
};

/// A cycle whose residual norm is above this fraction of the previous cycle's makes no progress.
inline constexpr double kStallFactor = 0.9;
/// This many such cycles in a row stop a multigrid solve as stalled.
inline constexpr int kStallCycles = 5;

/// Counts consecutive multigrid cycles whose convergence factor (norm over the previous
/// cycle's) is above kStallFactor. The loop then ends the solve as converged where the
/// residual lies at the rounding floor (RoundingFloor::reached).
class StallWatch {
 public:
  /// Takes the factor of the latest cycle (NaN, as for the initial residual, resets the count);
  /// true once kStallCycles cycles in a row were above kStallFactor.
  bool stalled(double factor);

 private:
  int run_ = 0;
};

/// One check's residual as the stall rules and their messages read it: the chosen norm, the
/// max norm and u's largest value (the floor scales with it).
struct ResidualCheck {
  std::int64_t iteration = 0;
  double norm = std::numeric_limits<double>::infinity();
  double linf = std::numeric_limits<double>::infinity();
  double u_max = 0;
};

/// Conjugate gradients minimise the error's energy, not the residual, which may rise for a
/// while: at a coefficient contrast of 1e6 it climbs by orders of magnitude over several
/// iterations before it falls (numerics.md, "Norms and stopping"). So their stall rule is on
/// the residual's best value, with a long patience: stalled once it has not fallen below
/// kKrylovProgress x the best for kKrylovStallIterations iterations, or for 2 when the
/// residual is at the rounding floor, the stall at the floor, which needs no patience. At the
/// floor the max norm wanders over a factor of 10 or more from one iteration to the next, so
/// the floor is asked of the best check as well as the latest (RoundingFloor's band, or the
/// iteration reporting that rounding holds the residual up: FluxIteration::at_rounding_floor).
/// The loop then ends the solve as converged where either lies at the rounding floor
/// (RoundingFloor::reached).
inline constexpr double kKrylovProgress = 0.9;
inline constexpr int kKrylovStallIterations = 25;

class KrylovStall {
 public:
  /// Takes the latest check; `at_rounding_floor(best)` (which may ask the device) is called
  /// only when two or more iterations have passed without progress and fewer than
  /// kKrylovStallIterations, with the best check.
  template <typename AtFloor>
  bool stalled(const ResidualCheck& now, AtFloor&& at_rounding_floor) {
    if (now.norm < kKrylovProgress * best_.norm) {
      best_ = now;
      since_ = 0;
      return false;
    }
    return ++since_ >= kKrylovStallIterations || (since_ >= 2 && at_rounding_floor(best_));
  }
  double best() const { return best_.norm; }
  const ResidualCheck& best_check() const { return best_; }
  int since() const { return since_; }

 private:
  ResidualCheck best_;
  int since_ = 0;
};

/// The one message of conjugate gradients stalled at check `now` above the rounding floor or
/// short of kFloorProgress.
std::string describe_krylov_stall(const Case& c, const RoundingFloor& floor,
                                  const ResidualCheck& now, const KrylovStall& stall,
                                  double target);

/// The one message of a stalled multigrid solve: the residual reached, the target, where it
/// lies against the rounding floor and what to change.
std::string describe_stall(const Case& c, const RoundingFloor& floor, const ResidualCheck& now,
                           double target);

/// The one warning line of a solve that converged at the rounding floor at iteration `it`: the
/// tolerance below it, the residual where it stopped falling (`at`, the check that lies at the
/// floor: the latest or conjugate gradients' best) and the floor.
std::string describe_floor_convergence(const Case& c, const RoundingFloor& floor, std::int64_t it,
                                       const ResidualCheck& at, double target);

/// The wall-time limit of one run session (solve.max_wall_time or `run --time-limit`), from
/// the moment the loop starts; 0 seconds is no limit.
class WallLimit {
 public:
  explicit WallLimit(double seconds);
  /// Starts the limit's clock again: the loop's start, after its set-up.
  void restart() { start_ = std::chrono::steady_clock::now(); }
  bool reached() const;
  double seconds() const { return seconds_; }

 private:
  double seconds_;
  std::chrono::steady_clock::time_point start_;
};

/// A signal (options.stop) or the wall-time limit asking the loop to stop between iterations.
/// Codes ordered so that the largest over the ranks wins: a signal outranks the time limit.
class StopRequest {
 public:
  static constexpr int kNone = 0;
  static constexpr int kTimeLimit = 1;
  static constexpr int kSignal = 2;

  StopRequest(const std::atomic<bool>* signal, double max_wall_seconds)
      : signal_(signal), wall_limit_(max_wall_seconds) {}
  /// Starts the wall-time limit's clock: the loop calls it as its first iteration starts.
  void start_clock() { wall_limit_.restart(); }
  bool signalled() const { return signal_ && signal_->load(std::memory_order_relaxed); }
  /// This rank's request now.
  int code() const { return signalled() ? kSignal : wall_limit_.reached() ? kTimeLimit : kNone; }
  /// The status of a run stopped by `code` (not kNone).
  static SolveStatus status(long long code) {
    return code == kSignal ? SolveStatus::Interrupted : SolveStatus::TimeLimit;
  }

 private:
  const std::atomic<bool>* signal_;
  WallLimit wall_limit_;
};

}  // namespace fdsolve
