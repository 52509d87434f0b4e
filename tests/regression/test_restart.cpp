// Checkpoint and restart through the CLI: a run stopped at an odd iteration (or killed by a
// signal at whatever step it reached) and resumed ends bit-identical to an uninterrupted run;
// a checkpoint of another case is refused. Compiled for the CPU (regression) and for CUDA
// (gpu_regression).
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include "cli_runner.hpp"

#ifndef FDSOLVE_TEST_CUDA
#define FDSOLVE_TEST_CUDA 0
#endif
#if FDSOLVE_TEST_CUDA
#define RESTART_TEST(name) TEST_CASE("gpu: " name)
#else
#define RESTART_TEST(name) TEST_CASE("regression: " name)
#endif

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

const std::string kBackend = FDSOLVE_TEST_CUDA ? " --backend cuda" : " --backend cpu";

}  // namespace

RESTART_TEST("a Jacobi run stopped at iteration 37 and resumed is bit-identical") {
  TempDir full, parts;
  const std::string base = "run " + example("plate.yaml") + kBackend +
                           " --set grid.points=[49,41] --set checkpoint.every=37 --set "
                           "output.fields=[u,update] --output ";
  const auto a = run_fdsolve(base + full.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const auto b = run_fdsolve(base + parts.path.string() + " --set solve.max_iterations=37");
  INFO(b.output);
  REQUIRE(b.exit_code == 3);
  REQUIRE(fs::exists(parts.path / "checkpoint.h5"));
  const auto c = run_fdsolve(base + parts.path.string() + " --resume");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK(c.output.find("resuming from iteration 37") != std::string::npos);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
  CHECK(history_without_wall(full.path) == history_without_wall(parts.path));
}

RESTART_TEST("a multigrid run stopped at cycle 3 and resumed is bit-identical") {
  TempDir full, parts;
  const std::string base = "run " + example("plate.yaml") + kBackend +
                           " --set solve.method=multigrid --set grid.points=[65,65] --set "
                           "solve.tolerance=1e-11 --set checkpoint.every=3 --set "
                           "output.fields=[u,update] --output ";
  const auto a = run_fdsolve(base + full.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  REQUIRE(last_snapshot(full.path).info.iteration > 4);
  const auto b = run_fdsolve(base + parts.path.string() + " --set solve.max_iterations=3");
  INFO(b.output);
  REQUIRE(b.exit_code == 3);
  const auto c = run_fdsolve(base + parts.path.string() + " --resume");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK(c.output.find("resuming from cycle 3") != std::string::npos);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
  CHECK(history_without_wall(full.path) == history_without_wall(parts.path));
}

RESTART_TEST("a heat run killed by SIGTERM saves a checkpoint and resumes bit-identically") {
  TempDir full, parts;
  // About 45000 steps. The signal is sent once the first periodic checkpoint (step 1000)
  // shows the loop running, so it lands mid-run at whatever step the run has reached. Neumann
  // faces and a time-dependent boundary value exercise every piece of per-step state.
  const std::string base =
      "run " + example("heat_plate.yaml") + kBackend +
      " --set grid.points=[33,17] --set time.end=10 --set output.every=0"
      " --set 'boundary.x_min={type: dirichlet, value: \"1 + 0.1*sin(t)\"}'"
      " --set checkpoint.every=1000 --log-level warn --output ";
  const auto a = run_fdsolve(base + full.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const fs::path log = full.path / "interrupted.log";
  const int status = signal_after_checkpoint(base, parts.path, log);
  INFO(read_text(log));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 128 + SIGTERM);
  // The handler, not the default action, ended it: the state of the step it reached is saved.
  CHECK(read_text(log).find("interrupted by signal 15") != std::string::npos);
  const auto c = run_fdsolve(base + parts.path.string() + " --resume");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
}

RESTART_TEST("an implicit heat run killed by SIGTERM resumes bit-identically") {
  TempDir full, parts;
  // Crank-Nicolson steps solved by multigrid: 20000 steps, interrupted once the first periodic
  // checkpoint exists. A time-dependent Dirichlet value and source exercise the per-step state
  // (the right-hand side at both ends of a step, the warm start, the cycles' shift).
  const std::string base =
      "run " + example("heat_plate_implicit.yaml") + kBackend +
      " --set grid.points=[33,17] --set time.end=10 --set output.every=0"
      " --set 'boundary.x_min={type: dirichlet, value: \"1 + 0.1*sin(t)\"}'"
      " --set 'problem.source=\"x*cos(t)\"' --set checkpoint.every=1000 --log-level warn"
      " --output ";
  const auto a = run_fdsolve(base + full.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const fs::path log = full.path / "interrupted.log";
  const int status = signal_after_checkpoint(base, parts.path, log);
  INFO(read_text(log));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 128 + SIGTERM);
  const auto c = run_fdsolve(base + parts.path.string() + " --resume");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
  // The rows (residual, cycles per step) continue exactly.
  CHECK(history_without_wall(full.path) == history_without_wall(parts.path));
}

#if !FDSOLVE_TEST_CUDA
// CPU only: on a GPU these cycles take about a millisecond and the run ends before the signal
// (tools/interrupt_latency.py measures the GPU's runs in the device tests).
RESTART_TEST("a signal abandons a long multigrid cycle part-way; the resumed run is identical") {
  TempDir full, parts;
  // Cycles of about 56 fine sweeps (20 + 20 smoothing sweeps per level) on 2049x1025 nodes,
  // every one abandonable whatever its length (FDSOLVE_PROMPT_SECONDS=0; by default only those
  // over 0.2 s are). The signal follows the loop's log line of cycle 1's checkpoint (logged as
  // cycle 2 is about to start; the file itself is written in the background and may appear only
  // after cycle 2) by a third of a cycle as the uninterrupted run measured it: past cycle 2's
  // first sweep (the probe, which is never abandoned), well before its end.
  ::setenv("FDSOLVE_PROMPT_SECONDS", "0", 1);
  const std::string options =
      "run " + example("poisson_multigrid.yaml") + kBackend +
      " --set grid.points=[2049,1025] --set grid.extent=[2,1] --set output.every=0"
      " --set 'solve.multigrid={pre_smooth: 20, post_smooth: 20}' --set solve.tolerance=1e-10"
      " --set checkpoint.every=1";
  const std::string base = options + " --output ";
  const auto a = run_fdsolve(base + full.path.string() + " --log-level warn");
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const double cycle = iteration_seconds(full.path, 1);
  INFO("cycle 2 of the uninterrupted run took " << cycle << " s");
  const fs::path log = full.path / "interrupted.log";
  const int status = signal_after_log_line(options + " --log-level debug --output ", parts.path,
                                           log, "checkpoint at iteration 1:", cycle / 3);
  ::unsetenv("FDSOLVE_PROMPT_SECONDS");
  INFO(read_text(log));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 128 + SIGTERM);
  CHECK(read_text(log).find("abandoned part-way on the signal") != std::string::npos);
  const auto c = run_fdsolve(base + parts.path.string() + " --log-level warn --resume");
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
  CHECK(history_without_wall(full.path) == history_without_wall(parts.path));
}
#endif

RESTART_TEST("--resume refuses a checkpoint of another case, and a missing one") {
  TempDir out;
  const std::string base = "run " + example("plate.yaml") + kBackend +
                           " --set solve.max_iterations=20 --set checkpoint.every=10 --output " +
                           out.path.string();
  REQUIRE(run_fdsolve(base).exit_code == 3);
  const auto other = run_fdsolve(base + " --resume --set grid.points=[65,65]");
  CHECK(other.exit_code == 2);
  CHECK(other.output.find("different case") != std::string::npos);
  // Stopping criteria are not part of the case's identity: more iterations may follow.
  CHECK(run_fdsolve(base + " --resume --set solve.max_iterations=30").exit_code == 3);
  TempDir empty;
  const auto none = run_fdsolve("run " + example("plate.yaml") + kBackend + " --resume --output " +
                                empty.path.string());
  CHECK(none.exit_code == 2);
  CHECK(none.output.find("no checkpoint") != std::string::npos);
}
