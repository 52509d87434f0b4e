// `fdsolve check` says what matters for the method: Jacobi's spectral radius and iteration
// estimate for Jacobi only (not for multigrid cycles or CG), no time per cycle (its
// copy-bandwidth prediction was several times too low), and for explicit heat the k its
// stability limit is computed with, a diffusivity field named with its range.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

bool has(const CliResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

/// Writes `yaml` as case.yaml in `dir` and runs `fdsolve check` on it.
CliResult check_case(const TempDir& dir, const std::string& yaml) {
  fs::create_directories(dir.path);
  const fs::path file = dir.path / "case.yaml";
  std::ofstream(file) << yaml;
  return run_fdsolve("check " + file.string() + " --backend cpu");
}

}  // namespace

TEST_CASE("regression: check prints Jacobi's estimates for Jacobi only") {
  TempDir dir;
  // 33 x 33, Dirichlet on every face: the 5-point Jacobi radius is cos(pi / 32) by hand.
  const auto jacobi = check_case(dir,
                                 "grid: {points: [33, 33]}\n"
                                 "solve: {method: jacobi}\n");
  INFO(jacobi.output);
  REQUIRE(jacobi.exit_code == 0);
  char radius[80];
  std::snprintf(radius, sizeof radius, "# Jacobi spectral radius on this grid: %.9f\n",
                std::cos(M_PI / 32));
  CHECK(has(jacobi, radius));
  CHECK(has(jacobi, "# estimated iterations to reduce the norm by tolerance 1e-06: "));

  const std::vector<std::pair<const char*, std::string>> cycles = {
      {"multigrid cycles", "grid: {points: [65, 65]}\nsolve: {method: multigrid}\n"},
      {"CG preconditioned by multigrid (a coefficient field)",
       "grid: {points: [65, 65]}\n"
       "problem: {equation: poisson, source: 1, coefficient: \"x < 32 ? 5 : 1\"}\n"},
      {"implicit heat",
       "grid: {points: [65, 65]}\nproblem: {equation: heat}\n"
       "time: {scheme: implicit, dt: 0.5, end: 1}\n"}};
  for (const auto& [what, yaml] : cycles) {
    CAPTURE(what);
    const auto r = check_case(dir, yaml);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(has(r, "expected work: about "));  // the cycle's work, in fine sweeps
    CHECK_FALSE(has(r, "Jacobi spectral radius"));
    CHECK_FALSE(has(r, "estimated iterations"));
    CHECK_FALSE(has(r, "more than max_iterations"));
    CHECK_FALSE(has(r, "expected time per cycle"));
  }
  const auto cg = check_case(dir, cycles[1].second);
  CHECK(has(cg, "# method: conjugate gradients preconditioned by multigrid"));
}

TEST_CASE("regression: check names the k of the explicit stability limit") {
  TempDir dir;
  const std::string grid = "grid: {points: [21, 21], extent: [1, 1]}\n";  // h = 0.05
  // A number: the 5-point limit h^2 / (4 k) = 0.0025 / 8.
  const auto number = check_case(dir, grid + "problem: {equation: heat, diffusivity: 2}\n");
  INFO(number.output);
  REQUIRE(number.exit_code == 0);
  CHECK(has(number,
            "# stability limit: dt <= 0.0003125 (k = 2, 5-point stencil, h = [0.05, "
            "0.05])\n"));

  // A field of k = 100 on a band of rows, 1 elsewhere: a node inside the band has four faces
  // of 100, so the limit is 1 / (4 x 100 / h^2) = 6.25e-06.
  const auto field = check_case(
      dir, grid + "problem: {equation: heat, diffusivity: \"y > 0.3 && y < 0.7 ? 100 : 1\"}\n");
  INFO(field.output);
  REQUIRE(field.exit_code == 0);
  CHECK(has(field,
            "# stability limit: dt <= 6.25e-06 (k from the problem.diffusivity field, 1 "
            "to 100: the limit is 1 / the largest sum of k_f / h^2 over a node's faces, "
            "5-point stencil, h = [0.05, 0.05])\n"));
  CHECK_FALSE(has(field, "k = 1"));

  // A formula equal at every node runs as that number, in check as in run: k = 4, the limit
  // 0.0025 / 16, and a dt above it is refused by both.
  const std::string uniform = grid + "problem: {equation: heat, diffusivity: \"4 + 0*x\"}\n";
  const auto same = check_case(dir, uniform);
  INFO(same.output);
  REQUIRE(same.exit_code == 0);
  CHECK(has(same,
            "# stability limit: dt <= 0.00015625 (k = 4, problem.diffusivity equal at "
            "every node, 5-point stencil"));
  const auto too_long = check_case(dir, uniform + "time: {dt: 0.0002, end: 0.001}\n");
  INFO(too_long.output);
  CHECK(too_long.exit_code == 2);
  CHECK(has(too_long, "time.dt: 0.0002 is above the stability limit 0.00015625"));
  const auto run = run_fdsolve("run " + (dir.path / "case.yaml").string() +
                               " --backend cpu --output " + (dir.path / "out").string());
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK(has(run, "time.dt: 0.0002 is above the stability limit 0.00015625"));
}
