// How a heat run's steps are laid out in time: steps of dt from t = 0, the step that reaches a
// mark (an output time of output.interval or output.times, and time.end) shortened to land
// exactly on it, and Crank-Nicolson's Rannacher start of backward-Euler half steps first. The
// explicit and implicit schemes step by the same plan, so that their snapshots fall at the
// same times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"

namespace fdsolve {

/// The steps from one mark to the next: `steps` steps after step `first`, the first
/// `half_steps` of them half steps (the Rannacher start), the rest of dt, the last ending at
/// `end` exactly.
struct TimeSegment {
  double start = 0;
  double end = 0;
  std::int64_t first = 0;  // steps before the segment
  std::int64_t steps = 0;
  std::int64_t half_steps = 0;
};

/// How a heat case steps: `steps` steps of `dt`, each segment's last step (the run's last: of
/// `last_dt`) shortened so that it lands on the segment's mark; steps 1..startup are
/// backward-Euler steps of dt / 2 (Crank-Nicolson's Rannacher start).
struct TimePlan {
  double dt = 0;
  double last_dt = 0;
  std::int64_t steps = 0;
  std::int64_t startup = 0;
  double end = 0;
  double limit = 0;  // the stability limit dt was checked against
  std::vector<TimeSegment> segments;  // in order; the last ends at `end`
  /// output.interval or output.times: snapshots at t = 0 and at the steps of output_steps.
  bool timed_output = false;
  std::vector<std::int64_t> output_steps;  // increasing: steps that land on an output time

  double time_after(std::int64_t step) const {
    if (step >= steps) return end;
    const TimeSegment& s = segment_of(step);
    const std::int64_t local = step - s.first;
    if (local == s.steps) return s.end;
    const double half = 0.5 * dt;
    if (local <= s.half_steps) return s.start + static_cast<double>(local) * half;
    // The first segment starts at 0: its times are those of a plan without marks.
    return s.start + (static_cast<double>(s.half_steps) * half +
                      static_cast<double>(local - s.half_steps) * dt);
  }
  /// The length of step `step` (1-based).
  double step_dt(std::int64_t step) const {
    if (lands(step)) return time_after(step) - time_after(step - 1);
    const TimeSegment& s = segment_of(step);
    return step - s.first <= s.half_steps ? 0.5 * dt : dt;
  }
  /// Whether step `step` is shortened to land on a mark (the segment's last).
  bool lands(std::int64_t step) const {
    if (step == steps) return true;
    const TimeSegment& s = segment_of(step);
    return step - s.first == s.steps;
  }
  /// Whether step `step` is one of the backward-Euler start.
  bool startup_step(std::int64_t step) const { return step <= startup; }

 private:
  /// The segment holding step `step` (first < step <= first + steps; step 0: the first).
  const TimeSegment& segment_of(std::int64_t step) const;
};

/// The output times of output.interval (interval, 2 interval, ... before time.end, and
/// time.end) or output.times (with time.end where the list stops before it); empty for
/// neither. t = 0 is written besides.
std::vector<double> output_times(const Case& c);

/// For `check`: "output times: t = 0, 0.1, 0.2, ... 1 (11 snapshots ...)", the first few and
/// the count; empty without output.interval and output.times.
std::string describe_output_times(const Case& c);

/// Lays the plan's steps of `dt` out from t = 0 through the marks `marks` (increasing, the
/// last time.end), the first `startup` of them Rannacher half steps: sets segments, steps,
/// startup and last_dt.
void lay_out_steps(TimePlan& plan, const std::vector<double>& marks, std::int64_t startup);

}  // namespace fdsolve
