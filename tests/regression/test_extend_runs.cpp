// Runs that can be extended (solver/loop/end_checkpoint.hpp, docs/commands.md "Continuing a
// finished run"): a finished heat run continued with `run --resume OUTDIR --set time.end=T2`
// must end with the files of one run to T2, bit for bit (explicit, backward Euler,
// Crank-Nicolson, with and without snapshots, its last step shortened to land on the first
// end, or that end inside the Rannacher start); the checkpoint of a run interrupted, resumed
// and finished is its end, not the interrupt's; a checkpoint older than the run's end is
// refused (exit 2, nothing written), and used once summary.json is removed. The independent
// expectation is always the uninterrupted run. Steady runs: test_extend_steady.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "cli_runner.hpp"
#include "extend_support.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

const std::string kCpu = " --backend cpu";

/// Backward Euler with a time-dependent boundary value and source (the right-hand side at both
/// ends of a step, and the time each step reaches, must continue exactly).
const std::string kBackwardEuler =
    "name: be\n"
    "grid: {points: [33, 17], extent: [1.0, 0.5]}\n"
    "problem: {equation: heat, source: \"x*cos(t)\"}\n"
    "boundary:\n"
    "  default: {type: neumann, gradient: 0}\n"
    "  x_min: {type: dirichlet, value: \"1 + 0.1*sin(t)\"}\n"
    "  x_max: {type: dirichlet, value: 0}\n"
    "time: {scheme: implicit, end: 1, dt: 1.0e-3}\n";

/// Runs `base` to t1 into one directory, continues it with `--resume DIR --set time.end=t2`,
/// runs `base` to t2 into another, and checks the continued directory against the whole run
/// (check_same_output). Returns the first run's last step.
std::int64_t check_extension(const std::string& base, const std::string& t1,
                             const std::string& t2) {
  TempDir parts, whole;
  const auto a = run_fdsolve(base + " --set time.end=" + t1 + " --output " + parts.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const std::int64_t last = last_snapshot(parts.path).info.iteration;
  // The checkpoint is the state before the last step, which a longer run takes with dt.
  REQUIRE(fs::exists(parts.path / "checkpoint.h5"));
  CHECK(read_checkpoint_file(parts.path).info.iteration == last - 1);
  const auto b = run_fdsolve("run --resume " + parts.path.string() + " --set time.end=" + t2);
  INFO(b.output);
  REQUIRE(b.exit_code == 0);
  CHECK(b.output.find("continuing the run that completed at step " + std::to_string(last)) !=
        std::string::npos);
  const auto c = run_fdsolve(base + " --set time.end=" + t2 + " --output " + whole.path.string());
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  check_same_output(parts.path, whole.path, last);
  return last;
}

}  // namespace

TEST_CASE("regression: explicit heat continued to a later time.end is one longer run") {
  // dt: auto, so the first run's last step is shortened to land on t1.
  const std::string base =
      "run " + example("heat_plate.yaml") + kCpu + " --set grid.points=[33,17]";
  SUBCASE("with snapshots") { check_extension(base + " --set output.every=50", "0.05", "0.1"); }
  SUBCASE("final state only, a time-dependent boundary value") {
    check_extension(base +
                        " --set output.every=0"
                        " --set 'boundary.x_min={type: dirichlet, value: \"1 + 0.1*sin(t)\"}'",
                    "0.05", "0.1");
  }
}

TEST_CASE("regression: backward Euler continued to a later time.end is one longer run") {
  TempDir dir;
  const fs::path file = write_case(dir.path, "be.yaml", kBackwardEuler);
  const std::string base = "run " + file.string() + kCpu;
  // 0.05 is 50 steps of 1e-3 up to rounding: the last step still differs from dt.
  SUBCASE("final state only") { check_extension(base + " --set output.every=0", "0.05", "0.1"); }
  SUBCASE("with snapshots") { check_extension(base + " --set output.every=7", "0.0333", "0.1"); }
}

TEST_CASE("regression: Crank-Nicolson continued to a later time.end is one longer run") {
  // Two backward-Euler half steps of 2.5e-4, then dt = 5e-4; checkpoint.every: 50.
  const std::string base =
      "run " + example("heat_plate_implicit.yaml") + kCpu + " --set grid.points=[33,17]";
  SUBCASE("final state only") { check_extension(base + " --set output.every=0", "0.05", "0.1"); }
  SUBCASE("with snapshots") { check_extension(base + " --set output.every=10", "0.0333", "0.1"); }
  SUBCASE("the first end inside the Rannacher start") {
    // A half step, then one shortened to 5e-5: the continued run takes the second half step
    // and the rest of the start as the longer run does, not a second start.
    CHECK(check_extension(base + " --set output.every=1", "0.0003", "0.01") == 2);
  }
  SUBCASE("the last step a periodic checkpoint's") {
    // Step 50 is the last: its checkpoint would replace the state before it.
    CHECK(check_extension(base + " --set output.every=0", "0.0245", "0.05") == 50);
  }
}

TEST_CASE("regression: a run interrupted, resumed and finished continues from its end") {
  // The case: the interrupt's checkpoint (step 0 here) must not be taken up again.
  TempDir parts, whole;
  const std::string base = "run " + example("heat_plate.yaml") + kCpu +
                           " --set grid.points=[33,17] --set output.every=0"
                           " --set checkpoint.every=100 --set time.end=0.05";
  const auto a = run_fdsolve(base + " --time-limit 0.000001 --output " + parts.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 3);
  const std::int64_t stopped = read_checkpoint_file(parts.path).info.iteration;
  REQUIRE(run_fdsolve("run --resume " + parts.path.string()).exit_code == 0);
  const std::int64_t last = last_snapshot(parts.path).info.iteration;
  REQUIRE(last > stopped + 1);
  const auto c = run_fdsolve("run --resume " + parts.path.string() + " --set time.end=0.1");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK(c.output.find("resuming from iteration " + std::to_string(last - 1)) != std::string::npos);
  REQUIRE(run_fdsolve(base + " --set time.end=0.1 --output " + whole.path.string()).exit_code == 0);
  // The interrupted session's last state is a further file the whole run does not have.
  fs::remove(parts.path / snapshot_name("heat_plate", stopped));
  check_same_output(parts.path, whole.path, last);
}

TEST_CASE(
    "regression: a checkpoint older than the run's end is refused, and used without "
    "summary.json") {
  TempDir parts, whole;
  const std::string base = "run " + example("heat_plate.yaml") + kCpu +
                           " --set grid.points=[33,17] --set output.every=0"
                           " --set checkpoint.every=100 --set time.end=0.05";
  REQUIRE(run_fdsolve(base + " --set time.end=0.02 --output " + parts.path.string()).exit_code ==
          0);
  const std::int64_t early = read_checkpoint_file(parts.path).info.iteration;
  const fs::path older = parts.path.parent_path() / (parts.path.filename().string() + ".h5");
  fs::copy_file(parts.path / "checkpoint.h5", older);
  REQUIRE(run_fdsolve("run --resume " + parts.path.string() + " --set time.end=0.05").exit_code ==
          0);
  const std::int64_t last = last_snapshot(parts.path).info.iteration;
  // A directory as an fdsolve that kept no end checkpoint leaves it: the checkpoint is of a
  // step before the run's end.
  fs::copy_file(older, parts.path / "checkpoint.h5", fs::copy_options::overwrite_existing);
  fs::remove(older);
  const DirectoryState before = directory_state(parts.path);
  const auto refused = run_fdsolve("run --resume " + parts.path.string() + " --set time.end=0.1");
  INFO(refused.output);
  CHECK(refused.exit_code == 2);
  CHECK(refused.output.find("holds step " + std::to_string(early) +
                            ", but the run went on to step " + std::to_string(last) +
                            " (completed, ") != std::string::npos);
  CHECK(refused.output.find("remove " + (parts.path / "summary.json").string()) !=
        std::string::npos);
  CHECK(directory_state(parts.path) == before);  // nothing written
  // Without summary.json the older state is taken up: still a state of the same run, so the
  // continued run is the longer run too.
  fs::remove(parts.path / "summary.json");
  const auto taken = run_fdsolve("run --resume " + parts.path.string() + " --set time.end=0.1");
  INFO(taken.output);
  REQUIRE(taken.exit_code == 0);
  CHECK(taken.output.find("resuming from iteration " + std::to_string(early)) != std::string::npos);
  REQUIRE(run_fdsolve(base + " --set time.end=0.1 --output " + whole.path.string()).exit_code == 0);
  fs::remove(parts.path / snapshot_name("heat_plate", early + 1));
  fs::remove(parts.path / snapshot_name("heat_plate", last));
  check_same_output(parts.path, whole.path, -1);
}

TEST_CASE(
    "regression: --resume refuses a time.end before the checkpoint and a diverged run's "
    "last checkpoint") {
  TempDir heat, grow;
  REQUIRE(run_fdsolve("run " + example("heat_plate.yaml") + kCpu +
                      " --set grid.points=[33,17] --set output.every=0 --set time.end=0.05"
                      " --output " +
                      heat.path.string())
              .exit_code == 0);
  const DirectoryState before = directory_state(heat.path);
  const auto earlier = run_fdsolve("run --resume " + heat.path.string() + " --set time.end=0.02");
  INFO(earlier.output);
  CHECK(earlier.exit_code == 2);
  CHECK(earlier.output.find("time.end: 0.02 is not after the time of the checkpoint") !=
        std::string::npos);
  CHECK(directory_state(heat.path) == before);

  // u' = 2u: the norm doubles each sweep and passes divergence_factor at iteration 25, after
  // the checkpoint of iteration 20 (test_diagnostics.cpp has the same case).
  const fs::path file = write_case(grow.path, "grow.yaml",
                                   "grid: {points: [17, 13], extent: [4, 3], origin: [-1, 0.5]}\n"
                                   "problem: {equation: custom}\n"
                                   "stencil: {points: 5, weights: {center: 2, x: 0, y: 0}}\n"
                                   "initial: \"(abs(x - 0.5) < 0.1 && abs(y - 2) < 0.1) ? 1 : 0\"\n"
                                   "solve: {check_every: 5}\ncheckpoint: {every: 10}\n");
  const fs::path out = grow.path / "out";
  REQUIRE(run_fdsolve("run " + file.string() + kCpu + " --output " + out.string()).exit_code == 4);
  const auto diverged = run_fdsolve("run --resume " + out.string());
  INFO(diverged.output);
  CHECK(diverged.exit_code == 2);
  CHECK(diverged.output.find("holds iteration 20, but the run went on to iteration 25 and "
                             "diverged there") != std::string::npos);
}
