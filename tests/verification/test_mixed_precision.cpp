// solve.multigrid.precision: float (float cycles in a double defect correction) on the
// manufactured problems: the double run's discretization error (2D 5-point and 3D 7- and
// 27-point; Dirichlet, Neumann with non-zero gradients, periodic mixes) on a grid where float
// alone cannot reach it, the double answer within far less than that error, repeats bit for
// bit; the fallback to double cycles reported where the residual stops falling; float runs
// left as they are. Compiled for the CPU (label verification) and for CUDA (labels
// gpu;verification).
#include <cstdio>
#include <string>

#include "manufactured_problems.hpp"
#include "solve_support.hpp"

#if FDSOLVE_TEST_CUDA
#define MIXED_TEST(name) TEST_CASE("gpu: " name)
#else
#define MIXED_TEST(name) TEST_CASE("verification: " name)
#endif

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::test::manufactured;

namespace {

Solved solve(const Problem& p, const std::string& precision, const std::string& solve_section) {
  const std::string text =
      p.text + "precision: " + precision + "\nsolve: {method: multigrid, " + solve_section + "}\n";
  return precision == "float" ? solve_text<float>(text, {}, true) : solve_text<double>(text, {}, true);
}

double largest_gap(const Solved& a, const Solved& b) {
  double gap = 0;
  for (std::size_t i = 0; i < a.u().size(); ++i)
    gap = std::max(gap, std::fabs(a.u()[i] - b.u()[i]));
  return gap;
}

void check_problem(const Problem& p) {
  INFO(p.name);
  const std::string tight = "tolerance: 1.0e-10, max_iterations: 40";
  const Solved dbl = solve(p, "double", tight);
  REQUIRE(dbl.result.status == SolveStatus::Converged);
  CHECK_FALSE(dbl.result.mixed.has_value());
  const Solved mixed = solve(p, "double", tight + ", multigrid: {precision: float}");
  REQUIRE(mixed.result.status == SolveStatus::Converged);
  REQUIRE(mixed.result.mixed.has_value());
  CHECK(mixed.result.mixed->fallback_cycle == 0);
  const Errors d = errors(dbl, p.exact), m = errors(mixed, p.exact);
  char row[200];
  std::snprintf(row, sizeof row,
                "%s: cycles %lld (double %lld); max error %.4e (double %.4e); |mixed - double| "
                "%.2e",
                p.name.c_str(), static_cast<long long>(mixed.result.iterations),
                static_cast<long long>(dbl.result.iterations), m.max, d.max,
                largest_gap(mixed, dbl));
  MESSAGE(row);
  // Both are the discrete solution to 1e-10 of the residual: their gap is far below the
  // discretization error, and so the errors agree.
  CHECK(largest_gap(mixed, dbl) <= 1e-3 * d.max);
  CHECK(m.max <= 1.01 * d.max);
  CHECK(m.rms <= 1.01 * d.rms);
  CHECK(mixed.result.iterations <= dbl.result.iterations + 1);
  const Solved again = solve(p, "double", tight + ", multigrid: {precision: float}");
  CHECK(again.u() == mixed.u());
}

}  // namespace

MIXED_TEST("mixed precision: 2D 5-point, Dirichlet, Neumann and periodic") {
  // 513^2: float's rounding alone leaves a residual of about 1e-2 of the initial one here.
  check_problem(dirichlet(2, 5, 513));
  check_problem(neumann(2, 5, 513));
  check_problem(periodic(2, 5, 513));
}

MIXED_TEST("mixed precision: 3D 7- and 27-point, Dirichlet, Neumann and periodic") {
  check_problem(dirichlet(3, 7, 65));
  check_problem(neumann(3, 27, 65));
  check_problem(periodic(3, 7, 65));
}

MIXED_TEST("mixed precision: float alone misses the error the mixed run reaches") {
  // 1025^2: float's rounding holds its error near 1.5e-5, 19x the discretization error the mixed
  // run reaches (CPU; at 513^2 the two lie 9.6x apart with Chebyshev smoothing, 10.x with
  // Jacobi's: the grid is where the claim is clear, not the smoother).
  const Problem p = dirichlet(2, 5, 1025);
  const std::string tight = "tolerance: 1.0e-10, max_iterations: 40";
  const Solved single = solve(p, "float", tight);
  const Solved mixed = solve(p, "double", tight + ", multigrid: {precision: float}");
  CHECK_FALSE(single.result.mixed.has_value());
  const double float_error = errors(single, p.exact).max;
  const double mixed_error = errors(mixed, p.exact).max;
  MESSAGE("1025^2: max error float ", float_error, ", mixed ", mixed_error);
  CHECK(float_error >= 10 * mixed_error);
  // precision: float on a float run changes nothing (a warning says so).
  const Solved asked =
      solve(p, "float", "tolerance: 1.0e-10, max_iterations: 40, multigrid: {precision: float}");
  CHECK_FALSE(asked.result.mixed.has_value());
  CHECK(asked.u() == single.u());
}

MIXED_TEST("mixed precision: below double's rounding floor the run moves to double cycles") {
  // A tolerance no double solve reaches: the factor rises towards one at the floor, the run
  // moves to double cycles (reported) and stops as the double run does: converged at the
  // rounding floor.
  const Problem p = dirichlet(2, 5, 129);
  const std::string beyond = "tolerance: 1.0e-17, max_iterations: 40";
  const Solved dbl = solve(p, "double", beyond);
  const Solved mixed = solve(p, "double", beyond + ", multigrid: {precision: float}");
  CHECK(dbl.result.at_rounding_floor);
  CHECK(mixed.result.status == dbl.result.status);
  CHECK(mixed.result.at_rounding_floor == dbl.result.at_rounding_floor);
  REQUIRE(mixed.result.mixed.has_value());
  CHECK(mixed.result.mixed->fallback_cycle > 1);
  CHECK(mixed.result.norm_l2 <= 10 * dbl.result.norm_l2);
}
