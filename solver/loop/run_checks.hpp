// What a check concludes besides convergence: its row of history.csv, whether the run has
// diverged and where, and the one-time warning that the norm has stopped falling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"
#include "diagnostics.hpp"
#include "run_output.hpp"
#include "stencil.hpp"

namespace fdsolve {

/// The history row of a check at iteration `it`: norms from the sweep's own statistics (those
/// that decide convergence); range, mean and the rest from `diag`, or, without diagnostics
/// (null), the sweep's range and mean over the updated nodes.
output::HistoryRow history_row(std::int64_t it, double time, const SweepStats& stats,
                               const Diagnostics* diag, double wall_seconds);
/// Sets `row`'s diagnostics (range, mean, non-finite count, percentiles, where the largest
/// update is) from `diag`.
void add_diagnostics(output::HistoryRow& row, const Diagnostics& diag);

/// The chosen norm of `row` over that of the last of `earlier` (NaN when there is none): the
/// factor column of history.csv.
double norm_factor(const output::HistoryRow& row, const std::vector<output::HistoryRow>& earlier,
                   NormKind norm);

/// Whether a check has diverged: non-finite values (found by `diag` when given, else by a
/// non-finite norm or sum) or a norm above `limit` (divergence_factor x first norm).
bool diverged(double norm, double limit, const SweepStats& stats, const Diagnostics* diag);

/// The record of a diverged check, located with `diag`: the first non-finite nodes, or, when
/// every value is finite, the node of the largest update.
output::Divergence locate_divergence(std::int64_t it, double time, double norm, double limit,
                                     const Diagnostics& diag, const output::GridMeta& grid);

/// The divergence as one line for the log and the diverged snapshot; `heat` names steps.
std::string describe_divergence(const output::Divergence& d, int dims, bool heat);

/// The fall of the norm over the window below which a run counts as stagnating: 1%.
inline constexpr double kStagnationFall = 0.01;

/// Warns once per run when the chosen norm has fallen by less than kStagnationFall over the
/// last solve.stagnation_checks checks: for Jacobi with the iterations still needed, for
/// multigrid (`multigrid`) with the precision's rounding floor, which is where its cycles stall
/// (stop_rules.hpp stops those). Off for heat (its update norm settles at the rate the source
/// and boundaries drive it) and for stagnation_checks 0.
class StagnationWatch {
 public:
  explicit StagnationWatch(const Case& c, bool multigrid = false);

  /// Looks at the rows so far (the current check last, a resumed run's earlier rows before
  /// it) against the convergence `target`; returns the warning the first time the norm
  /// stagnates (also logged), else "".
  std::string check(const std::vector<output::HistoryRow>& rows, double target);

 private:
  const Case& c_;
  bool multigrid_;
  bool on_;
  bool warned_ = false;
};

}  // namespace fdsolve
