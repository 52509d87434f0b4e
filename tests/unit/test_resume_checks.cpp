// `run --resume`'s checks against the run's directory and the case's steps
// (solver/commands/resume_checks.hpp): the end read back from summary.json as its writer writes
// it, a checkpoint older than that end refused (but not the state before a completed heat run's
// last step), and a heat state that does not lie on the resumed case's steps refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "case_reader.hpp"
#include "commands/resume_checks.hpp"
#include "loop/stability.hpp"
#include "summary_json.hpp"
#include "test_output_support.hpp"

using namespace fdsolve;
namespace fs = std::filesystem;

namespace {


/// Explicit heat on 9 x 7 nodes (h = 1, stability limit 0.25) with steps of 0.01.
Case heat_case(const fs::path& out, const std::string& end) {
  return parse_case(
      "grid: {points: [9, 7]}\nproblem: {equation: heat}\n"
      "time: {end: " +
          end +
          ", dt: 0.01}\n"
          "output: {directory: '" +
          out.string() + "'}\n",
      "h.yaml");
}

void write_summary(const fs::path& dir, std::int64_t iterations, const std::string& status) {
  output::Summary s;
  s.name = "h";
  s.case_file = "odd \"iterations\": 7,\n name.yaml";  // a value quoting the key does not count
  s.iterations = iterations;
  s.status = status;
  output::HistoryRow row;
  row.iteration = iterations;
  s.history = {row};
  s.config_yaml = "solve:\n  max_iterations: 5\n";
  std::ofstream(dir / "summary.json") << output::format_summary_json(s);
}

LoopState state(std::int64_t step, double time) {
  LoopState s;
  s.iteration = step;
  s.time = time;
  return s;
}

}  // namespace

TEST_CASE("resume checks: the run's end read back from summary.json") {
  output::test::TempDir d;
  CHECK_FALSE(read_session_end(d.path().string()).has_value());
  write_summary(d.path(), 104999, "completed");
  const auto end = read_session_end(d.path().string());
  REQUIRE(end.has_value());
  CHECK(end->iterations == 104999);
  CHECK(end->status == "completed");
  std::ofstream(d.path() / "summary.json") << "{\n  \"iterations\": 12,\n";  // cut short
  CHECK_FALSE(read_session_end(d.path().string()).has_value());
  remove_earlier_summary(heat_case(d.path(), "1"));
  CHECK_FALSE(fs::exists(d.path() / "summary.json"));
}

TEST_CASE("resume checks: a checkpoint older than the run's end is refused") {
  output::test::TempDir d;
  const Case heat = heat_case(d.path(), "1");
  CHECK_NOTHROW(check_checkpoint_is_latest(heat, state(3, 0.03)));  // no summary: no end known
  write_summary(d.path(), 10, "completed");
  CHECK_NOTHROW(check_checkpoint_is_latest(heat, state(10, 0.1)));
  // The state before the last step, which a longer run continues from.
  CHECK_NOTHROW(check_checkpoint_is_latest(heat, state(9, 0.09)));
  CHECK(before_completed_last_step(heat, state(9, 0.09), read_session_end(d.path().string())));
  CHECK_THROWS_WITH_AS(check_checkpoint_is_latest(heat, state(8, 0.08)),
                       doctest::Contains("holds step 8, but the run went on to step 10 "
                                         "(completed, "),
                       InputError);
  // A steady run's end is its last state: one iteration short is older.
  const Case steady = parse_case(
      "grid: {points: [9, 7]}\nsolve: {method: jacobi}\n"
      "output: {directory: '" +
          d.path().string() + "'}\n",
      "s.yaml");
  write_summary(d.path(), 10, "converged");
  CHECK_THROWS_WITH(check_checkpoint_is_latest(steady, state(9, 9)),
                    doctest::Contains("holds iteration 9, but the run went on to iteration 10"));
  write_summary(d.path(), 10, "diverged");
  CHECK_THROWS_WITH(check_checkpoint_is_latest(heat, state(9, 0.09)),
                    doctest::Contains("and diverged there"));
  // A time-dependent input that turned non-finite stops a run at the checkpoint's step.
  write_summary(d.path(), 9, "diverged");
  CHECK_THROWS_WITH(check_checkpoint_is_latest(heat, state(9, 0.09)),
                    doctest::Contains("holds step 9, where the run then diverged"));
}

TEST_CASE("resume checks: a heat state must lie on the resumed case's steps") {
  output::test::TempDir d;
  const Case to_1 = heat_case(d.path(), "1");
  const TimePlan plan = heat_time_plan(to_1);
  CHECK_NOTHROW(check_heat_continuation(to_1, state(5, plan.time_after(5))));
  CHECK_NOTHROW(check_heat_continuation(to_1, state(100, 1.0)));  // at time.end: nothing left
  CHECK_THROWS_WITH(check_heat_continuation(to_1, state(120, 1.2)),
                    doctest::Contains("time.end: 1 is not after the time of the checkpoint"));
  // After a run to 0.095 (its tenth step shortened to 0.005) the state is at 0.095, where a
  // run to 1 is at 0.1: not one run.
  const Case to_095 = heat_case(d.path(), "0.095");
  const TimePlan short_plan = heat_time_plan(to_095);
  REQUIRE(short_plan.steps == 10);
  CHECK_THROWS_WITH(check_heat_continuation(to_1, state(10, short_plan.time_after(10))),
                    doctest::Contains("cannot continue as one run"));
  // The state before that last step is on both runs' steps.
  CHECK_NOTHROW(check_heat_continuation(to_1, state(9, short_plan.time_after(9))));
  // Steady cases have no steps to check.
  const Case steady = parse_case("grid: {points: [9, 7]}\n", "s.yaml");
  CHECK_NOTHROW(check_heat_continuation(steady, state(7, 7)));
}
