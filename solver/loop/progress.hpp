// Progress of a long solve: a live line on a terminal (iteration, norm, its rate of decay,
// ETA, cells/s) or, off a terminal, a log line per check at most once a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace fdsolve {

/// Iterations still needed for `norm` to fall to `target`, extrapolating the geometric decay
/// seen between two checks; negative when the norm is not decaying.
double iterations_to_target(std::int64_t it0, double norm0, std::int64_t it1, double norm1,
                            double target);

/// The norm's rate of change between two checks in decades (powers of ten) per 1000
/// iterations: -0.5 means it falls tenfold every 2000 iterations. NaN when it cannot be told.
double decades_per_1000(std::int64_t it0, double norm0, std::int64_t it1, double norm1);

class Progress {
 public:
  /// `live`: draw a line on stderr (a terminal, not --quiet). `cells`: nodes per sweep.
  /// `start`: iterations already done (a resumed run). `to_end`: a time-stepping run, which
  /// always takes every step, so its ETA counts steps rather than extrapolating the norm.
  Progress(bool live, std::int64_t max_iterations, std::int64_t cells, std::int64_t start = 0,
           bool to_end = false);
  ~Progress();

  /// Reports a check at iteration `it` with `norm` against the convergence `target`;
  /// `detail` (the check's diagnostics) is appended to log lines, not to the live line.
  void check(std::int64_t it, double norm, double target, const std::string& detail = {});
  /// Clears the live line so that later log lines start on a clean line.
  void finish();

 private:
  std::string line(std::int64_t it, double norm, double target, double seconds) const;

  bool live_;
  bool drawn_ = false;
  std::int64_t max_iterations_;
  std::int64_t cells_;
  std::int64_t start_iteration_;
  bool to_end_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_report_;
  std::int64_t prev_it_ = 0;
  double prev_norm_ = 0;
  std::int64_t last_it_ = 0;
  double last_norm_ = 0;
};

}  // namespace fdsolve
