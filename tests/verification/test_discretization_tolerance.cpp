// solve.tolerance: discretization on manufactured Poisson problems (2D 5-point and 3D 7-, 19-
// and 27-point; Dirichlet, Neumann and periodic mixes; hierarchies that stop nesting): the
// error against the exact solution within 1.2x of the fully converged grid's, in fewer cycles
// than tolerance 1e-8, and the estimated discretization error within a factor of two of the
// converged grid's true error (the same norm). Compiled for the CPU (label verification) and
// for CUDA (labels gpu;verification). The measured table is in docs/verification.md.
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "manufactured_problems.hpp"
#include "solve_support.hpp"

#if FDSOLVE_TEST_CUDA
#define ESTIMATE_TEST(name) TEST_CASE("gpu: " name)
#else
#define ESTIMATE_TEST(name) TEST_CASE("verification: " name)
#endif

using namespace fdsolve;
using namespace fdsolve::test;

namespace {

using namespace fdsolve::test::manufactured;

Solved solve(const Problem& p, const std::string& solve_section) {
  return solve_text(p.text + "solve: {method: multigrid, " + solve_section + "}\n", {}, true);
}

/// The estimate's checks in the l2 norm (root mean square) and in linf.
void check_problem(const Problem& p) {
  INFO(p.name);
  // The converged grid: the residual 1e-12 of the initial one, far below the O(h^2) error.
  const Solved full = solve(p, "tolerance: 1.0e-12, max_iterations: 60");
  REQUIRE(full.result.status == SolveStatus::Converged);
  const Errors converged = errors(full, p.exact);
  const Solved tight = solve(p, "tolerance: 1.0e-8, max_iterations: 60");
  REQUIRE(tight.result.status == SolveStatus::Converged);
  for (const char* norm : {"l2", "linf"}) {
    INFO("norm ", norm);
    // The l2 run measures each cycle's change with the check diagnostics, the linf run
    // without them (one pass over the two fields).
    const Solved d =
        solve(p, std::string("tolerance: discretization, max_iterations: 60, norm: ") + norm +
                     (std::string(norm) == "linf" ? ", diagnostics: false" : ""));
    REQUIRE(d.result.status == SolveStatus::Converged);
    REQUIRE(d.result.error_estimate.has_value());
    const Errors e = errors(d, p.exact);
    const double truth = std::string(norm) == "l2" ? converged.rms : converged.max;
    const double estimate = d.result.error_estimate->discretization;
    char row[200];
    std::snprintf(row, sizeof row,
                  "%s, %s: cycles %lld (1e-8: %lld); error %.3e / converged %.3e = %.3f; "
                  "estimate %.3e / true %.3e = %.2f; algebraic %.2e",
                  p.name.c_str(), norm, static_cast<long long>(d.result.iterations),
                  static_cast<long long>(tight.result.iterations),
                  std::string(norm) == "l2" ? e.rms : e.max, truth,
                  (std::string(norm) == "l2" ? e.rms : e.max) / truth, estimate, truth,
                  estimate / truth, d.result.error_estimate->algebraic);
    MESSAGE(row);
    CHECK(e.rms <= 1.2 * converged.rms);
    CHECK(e.max <= 1.2 * converged.max);
    CHECK(d.result.iterations < tight.result.iterations);
    CHECK(estimate >= 0.5 * truth);
    CHECK(estimate <= 2.0 * truth);
    CHECK(d.result.error_estimate->algebraic <= 0.1 * estimate);
  }
}

}  // namespace

ESTIMATE_TEST("tolerance discretization: 2D 5-point, Dirichlet, Neumann and periodic") {
  check_problem(dirichlet(2, 5, 129));
  check_problem(neumann(2, 5, 129));
  check_problem(periodic(2, 5, 129));
}

ESTIMATE_TEST("tolerance discretization: 2D grids whose multigrid levels stop nesting") {
  // 151 -> 76 -> 39: nested once, then not; 301 -> 151 -> 76: nested twice. The estimate's
  // coarse grid is every other node all the same.
  check_problem(dirichlet(2, 5, 151));
  check_problem(neumann(2, 5, 301));
}

ESTIMATE_TEST("tolerance discretization: 3D 7-, 19- and 27-point, Dirichlet and Neumann") {
  for (const int stencil : {7, 19, 27}) {
    check_problem(dirichlet(3, stencil, 33));
    check_problem(neumann(3, stencil, 33));
  }
}

ESTIMATE_TEST("tolerance discretization: 3D periodic mix") { check_problem(periodic(3, 7, 33)); }
