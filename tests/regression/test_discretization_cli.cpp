// solve.tolerance: discretization through the CLI: the run says what it estimates, stops in
// fewer cycles than tolerance 1e-8 with the estimate in summary.json, `check` describes the
// rule, a resumed run stops where an uninterrupted one does, and a case the rule does not
// apply to fails as bad input (exit 2).
#include <doctest/doctest.h>

#include <string>

#include "cli_runner.hpp"
#include "history_csv.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

const std::string kCase = "run " + example("poisson_multigrid.yaml") +
                          " --backend cpu --set grid.points=[129,129] --set output.every=0";

double estimate_value(const fs::path& dir, const std::string& key) {
  return summary_number(dir, key, "error_estimate");
}

std::size_t cycles(const fs::path& dir) {
  return fdsolve::output::parse_history_csv(read_text(dir / "history.csv")).back().iteration;
}

}  // namespace

TEST_CASE("regression: tolerance discretization stops early and writes its estimate") {
  TempDir estimated, tight;
  const auto e = run_fdsolve(kCase + " --set solve.tolerance=discretization --output " +
                             estimated.path.string());
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  CHECK(e.output.find("the grid through every other node solved in") != std::string::npos);
  CHECK(e.output.find("converged to the discretization error") != std::string::npos);
  const double discretization = estimate_value(estimated.path, "discretization");
  const double algebraic = estimate_value(estimated.path, "algebraic");
  // h = 1/128 and a solution of size about 4: an O(h^2) error of 1e-6 to 1e-3.
  CHECK(discretization > 1e-6);
  CHECK(discretization < 1e-3);
  CHECK(algebraic <= 0.1 * discretization);
  CHECK(read_text(estimated.path / "summary.json").find("\"norm\": \"l2\"") != std::string::npos);

  const auto t = run_fdsolve(kCase + " --set solve.tolerance=1e-8 --output " +
                             tight.path.string());
  REQUIRE(t.exit_code == 0);
  CHECK(read_text(tight.path / "summary.json").find("error_estimate") == std::string::npos);
  CHECK(cycles(estimated.path) < cycles(tight.path));

  const auto check = run_fdsolve("check " + example("poisson_multigrid.yaml") +
                                 " --set solve.tolerance=discretization");
  INFO(check.output);
  CHECK(check.exit_code == 0);
  CHECK(check.output.find("# tolerance: discretization: stop when the estimated algebraic "
                          "error is at most 0.1 x") != std::string::npos);
}

TEST_CASE("regression: a resumed tolerance discretization run stops where an uninterrupted one "
          "does") {
  TempDir whole, out;
  REQUIRE(run_fdsolve(kCase + " --set solve.tolerance=discretization --quiet --output " +
                      whole.path.string())
              .exit_code == 0);
  const auto first =
      run_fdsolve(kCase + " --set solve.tolerance=discretization --set solve.max_iterations=1"
                          " --set checkpoint.every=1 --output " + out.path.string());
  INFO(first.output);
  REQUIRE(first.exit_code == 3);  // max_iterations: one cycle is never enough
  const auto resumed =
      run_fdsolve("run --resume " + out.path.string() + " --set solve.max_iterations=30");
  INFO(resumed.output);
  REQUIRE(resumed.exit_code == 0);
  CHECK(resumed.output.find("converged to the discretization error") != std::string::npos);
  // The resumed run solves the coarse grid again and estimates from the same u.
  CHECK(cycles(out.path) == cycles(whole.path));
  CHECK(estimate_value(out.path, "discretization") ==
        doctest::Approx(estimate_value(whole.path, "discretization")).epsilon(1e-12));
  check_bit_identical(last_snapshot(out.path), last_snapshot(whole.path));
}

TEST_CASE("regression: tolerance discretization where it does not apply is bad input") {
  const auto jacobi = run_fdsolve("run " + example("plate.yaml") +
                                  " --backend cpu --set solve.tolerance=discretization");
  INFO(jacobi.output);
  CHECK(jacobi.exit_code == 2);
  CHECK(jacobi.output.find("needs multigrid") != std::string::npos);
  const auto odd = run_fdsolve(kCase + " --set grid.points=[130,129]"
                                       " --set solve.tolerance=discretization");
  CHECK(odd.exit_code == 2);
  CHECK(odd.output.find("the x axis has 129 intervals") != std::string::npos);
}
