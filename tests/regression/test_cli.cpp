// The command line's contract: exit codes, nothing written on bad input, check, version,
// compare, and deterministic results.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

TEST_CASE("regression: a bad case exits 2 with one located line and writes nothing") {
  TempDir dir;
  fs::create_directories(dir.path);
  const fs::path bad = dir.path / "bad.yaml";
  std::ofstream(bad) << "grid:\n  points: [9, 9]\nsolve:\n  tolerence: 1e-6\n";
  const fs::path out = dir.path / "out";
  const auto r = run_fdsolve("run " + bad.string() + " --output " + out.string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(bad.string() + ":4:3: solve.tolerence:") != std::string::npos);
  CHECK(r.output.find("tolerance") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  CHECK(run_fdsolve("check " + bad.string()).exit_code == 2);
  CHECK(run_fdsolve("run " + (dir.path / "missing.yaml").string()).exit_code == 2);
  CHECK(run_fdsolve("run").exit_code == 2);
  CHECK(run_fdsolve("frobnicate").exit_code == 2);
}

TEST_CASE("regression: check prints the resolved case and writes nothing") {
  const auto r = run_fdsolve("check " + example("plate.yaml") + " --set solve.check_every=7");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("check_every: 7") != std::string::npos);
  CHECK(r.output.find("max_iterations: 1000000") != std::string::npos);
  CHECK(r.output.find("# memory:") != std::string::npos);
}

TEST_CASE("regression: check takes --backend as run does") {
  // --backend cpu overrides the case's backend and the kernel line names the CPU backend.
  const auto cpu = run_fdsolve("check " + example("plate.yaml") + " --backend cpu");
  INFO(cpu.output);
  CHECK(cpu.exit_code == 0);
  CHECK(cpu.output.find("backend: cpu") != std::string::npos);
  CHECK(cpu.output.find(" on cpu (") != std::string::npos);
  // The same as --set backend=cpu.
  CHECK(run_fdsolve("check " + example("plate.yaml") + " --set backend=cpu").output == cpu.output);
  // auto and cuda are accepted (without a device, cuda's kernel is chosen when a run starts);
  // anything else is a usage error.
  const auto cuda = run_fdsolve("check " + example("plate.yaml") + " --backend cuda");
  INFO(cuda.output);
  CHECK(cuda.exit_code == 0);
  CHECK(cuda.output.find("backend: cuda") != std::string::npos);
  CHECK(run_fdsolve("check " + example("plate.yaml") + " --backend auto").exit_code == 0);
  CHECK(run_fdsolve("check " + example("plate.yaml") + " --backend gpu").exit_code == 2);
}

TEST_CASE("regression: max_iterations exits 3 with results written") {
  TempDir out;
  const auto r =
      run_fdsolve("run " + example("plate.yaml") +
                  " --backend cpu --set solve.max_iterations=250 --output " + out.path.string());
  CHECK(r.exit_code == 3);
  CHECK(last_snapshot(out.path).info.iteration == 250);
  CHECK(read_text(out.path / "summary.json").find("\"max_iterations\"") != std::string::npos);
}

TEST_CASE("regression: a blow-up exits 4 with the last state written") {
  TempDir out;
  const auto r = run_fdsolve(
      "run " + example("study_5pt.yaml") +
      " --backend cpu --set 'stencil={points: 5, weights: {center: 0.9, x: 0.2, y: 0.2}}'"
      " --output " +
      out.path.string());
  INFO(r.output);
  CHECK(r.exit_code == 4);
  CHECK(fs::exists(out.path / "summary.json"));
  CHECK(read_text(out.path / "summary.json").find("\"diverged\"") != std::string::npos);
}

TEST_CASE("regression: the same case gives bit-identical results; compare sees a change") {
  TempDir a, b, c;
  const std::string args =
      "run " + example("plate.yaml") + " --backend cpu --set grid.points=[41,33] --output ";
  REQUIRE(run_fdsolve(args + a.path.string()).exit_code == 0);
  REQUIRE(run_fdsolve(args + b.path.string()).exit_code == 0);
  const auto same =
      run_fdsolve("compare " + a.path.string() + " " + b.path.string() + " --rtol 0 --atol 0");
  INFO(same.output);
  CHECK(same.exit_code == 0);
  REQUIRE(run_fdsolve(args + c.path.string() + " --set boundary.y_max.value=1.001").exit_code == 0);
  CHECK(run_fdsolve("compare " + a.path.string() + " " + c.path.string()).exit_code == 1);
  CHECK(run_fdsolve("compare " + a.path.string() + " /nonexistent/x.h5").exit_code == 2);
}

TEST_CASE("regression: --quiet after the sub-command leaves errors only") {
  TempDir out;
  const auto r = run_fdsolve("run " + example("study_5pt.yaml") +
                             " --backend cpu --quiet --output " + out.path.string());
  CHECK(r.exit_code == 0);
  CHECK(r.output.empty());
  const auto again = run_fdsolve("run " + example("study_5pt.yaml") +
                                 " --backend cpu --log-level warn --output " + out.path.string());
  CHECK(again.exit_code == 0);
  CHECK(again.output.find("earlier run") == std::string::npos);
  CHECK(again.output.find("already holds 1 snapshot") != std::string::npos);
}

TEST_CASE("regression: --version names the build options") {
  const auto r = run_fdsolve("--version");
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("fdsolve ") != std::string::npos);
  CHECK(r.output.find("CUDA: ") != std::string::npos);
}

TEST_CASE("regression: a non-finite input is bad input up front, or stops a run later (exit 4)") {
  TempDir dir;
  fs::create_directories(dir.path);
  // 1/0 at every node: found by check and run before anything is written (exit 2).
  const fs::path bad = dir.path / "bad.yaml";
  std::ofstream(bad) << "grid: {points: [5, 5]}\nproblem: {equation: poisson, source: \"1/0\"}\n";
  const fs::path out = dir.path / "out";
  const auto r = run_fdsolve("run " + bad.string() + " --output " + out.string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(bad.string() + ":2:38: problem.source: evaluates to inf at node (i, j) = "
                      "(0, 0), (x, y) = (0, 0)") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  CHECK(run_fdsolve("check " + bad.string()).exit_code == 2);

  // Finite at t = 0 (check passes), infinite from t > 0.02: with dt 0.01 step 4 starts at
  // t = 0.03, so the run stops there with the state after step 3, which is finite.
  const fs::path late = dir.path / "late.yaml";
  std::ofstream(late) << "grid: {points: [9, 9]}\n"
                         "problem: {equation: heat, source: \"1/(t > 0.02 ? 0 : 1)\"}\n"
                         "time: {end: 0.1, dt: 0.01}\n";
  CHECK(run_fdsolve("check " + late.string()).exit_code == 0);
  const auto s = run_fdsolve("run " + late.string() + " --output " + out.string());
  INFO(s.output);
  CHECK(s.exit_code == 4);
  CHECK(s.output.find("diverged at step 4 (t = 0.03): problem.source: evaluates to inf at node "
                      "(i, j) = (0, 0), (x, y) = (0, 0) at t = 0.03") != std::string::npos);
  const std::string summary = read_text(out / "summary.json");
  CHECK(summary.find("\"reason\": \"input\"") != std::string::npos);
  CHECK(summary.find("\"iterations\": 3,") != std::string::npos);
  const auto last = last_snapshot(out);
  CHECK(last.info.iteration == 3);
  for (double v : field(last, "u")) CHECK(std::isfinite(v));
}
