// The layout of a heat run's steps between its marks (see time_plan.hpp).
#include "time_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace fdsolve {

const TimeSegment& TimePlan::segment_of(std::int64_t step) const {
  static const TimeSegment none;
  if (segments.empty()) return none;
  // The first segment whose last step is at or after `step`.
  const auto it = std::lower_bound(
      segments.begin(), segments.end(), step,
      [](const TimeSegment& s, std::int64_t value) { return s.first + s.steps < value; });
  return it == segments.end() ? segments.back() : *it;
}

std::vector<double> output_times(const Case& c) {
  const OutputSpec& o = c.output;
  const double end = c.time.end;
  std::vector<double> times;
  if (o.interval > 0) {
    // Multiples of the interval, each computed afresh (no sum drifting from k x interval); one
    // within a billionth of an interval of the end is the end.
    for (std::int64_t k = 1;; ++k) {
      const double t = static_cast<double>(k) * o.interval;
      if (!(t < end - 1e-9 * o.interval)) break;
      times.push_back(t);
    }
  } else {
    times = o.times;
  }
  if (o.interval > 0 || !o.times.empty())
    if (times.empty() || times.back() < end) times.push_back(end);
  return times;
}

std::string describe_output_times(const Case& c) {
  const std::vector<double> times = output_times(c);
  if (times.empty()) return {};
  constexpr std::size_t kShown = 6;
  std::string list = "t = 0";
  for (std::size_t i = 0; i < times.size() && i < kShown; ++i)
    list += fmt::format(", {:g}", times[i]);
  if (times.size() > kShown) list += fmt::format(", ... {:g}", times.back());
  return fmt::format(
      "output times: {} ({} snapshots with t = 0, from {}; each step that would pass one is "
      "shortened to land on it)",
      list, times.size() + 1,
      c.output.interval > 0 ? fmt::format("output.interval {:g}", c.output.interval)
                            : std::string("output.times"));
}

void lay_out_steps(TimePlan& plan, const std::vector<double>& marks, std::int64_t startup) {
  // Steps of dt up to each mark; a remainder of less than a millionth of a step is rounding,
  // not a step. Crank-Nicolson's start: `startup` half steps first (all of a segment shorter
  // than what is left of them, the rest continuing in the next).
  const auto steps_in = [](double span, double dt) {
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(span / dt - 1e-6)));
  };
  const double half = 0.5 * plan.dt;
  std::int64_t left = startup;
  TimeSegment s;
  plan.segments.clear();
  plan.startup = 0;
  for (const double mark : marks) {
    s.end = mark;
    const double span = mark - s.start;
    if (left > 0 && static_cast<double>(left) * half >= span * (1 - 1e-6)) {
      s.steps = s.half_steps = steps_in(span, half);
      left = std::max<std::int64_t>(0, left - s.steps);
    } else {
      s.half_steps = left;
      s.steps = left + steps_in(span - static_cast<double>(left) * half, plan.dt);
      left = 0;
    }
    plan.startup += s.half_steps;
    plan.segments.push_back(s);
    s.first += s.steps;
    s.start = mark;
  }
  plan.steps = s.first;
  plan.end = marks.back();
  plan.last_dt = plan.end - plan.time_after(plan.steps - 1);
}

}  // namespace fdsolve
