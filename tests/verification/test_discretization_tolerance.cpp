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

#include "solve_support.hpp"

#if FDSOLVE_TEST_CUDA
#define ESTIMATE_TEST(name) TEST_CASE("gpu: " name)
#else
#define ESTIMATE_TEST(name) TEST_CASE("verification: " name)
#endif

using namespace fdsolve;
using namespace fdsolve::test;

namespace {

using Exact = std::function<double(double, double, double)>;

/// The manufactured problem: the case text without its solve section, and u.
struct Problem {
  std::string name;
  std::string text;
  Exact exact;
};

/// The root mean square and the maximum of u - exact over every node of the final snapshot.
struct Errors {
  double rms = 0;
  double max = 0;
};

Errors errors(const Solved& s, const Exact& exact) {
  Errors e;
  double sum = 0;
  std::size_t n = 0;
  s.for_each_node([&](std::int64_t, std::int64_t, std::int64_t, double x, double y, double z,
                      double u) {
    const double d = std::fabs(u - exact(x, y, z));
    sum += d * d;
    e.max = std::max(e.max, d);
    ++n;
  });
  e.rms = std::sqrt(sum / static_cast<double>(n));
  return e;
}

std::string points(int dims, int n) {
  const std::string p = std::to_string(n);
  return dims == 2 ? "[" + p + ", " + p + "]" : "[" + p + ", " + p + ", " + p + "]";
}

/// u = prod sin(pi x_a), zero Dirichlet faces, f = d pi^2 u.
Problem dirichlet(int dims, int stencil, int n) {
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point Dirichlet, " +
           std::to_string(n) + " points";
  const std::string u = dims == 2 ? "sin(pi*x)*sin(pi*y)" : "sin(pi*x)*sin(pi*y)*sin(pi*z)";
  p.text = "grid: {points: " + points(dims, n) + ", extent: " +
           (dims == 2 ? "[1, 1]" : "[1, 1, 1]") + "}\nstencil: " + std::to_string(stencil) +
           "\nproblem: {equation: poisson, source: '" + std::to_string(dims) + "*pi^2*" + u +
           "'}\nboundary: {default: {type: dirichlet, value: 0}}\n";
  p.exact = [dims](double x, double y, double z) {
    return std::sin(M_PI * x) * std::sin(M_PI * y) * (dims == 3 ? std::sin(M_PI * z) : 1.0);
  };
  return p;
}

/// Neumann faces with non-zero gradients (x_min, x_max, y_max, and z_max in 3D), Dirichlet on
/// y_min (u = 0) and, in 3D, z_min (u non-zero): X = sin(pi (x + 1/4)), Y = sin(3 pi y / 4),
/// Z = sin(pi z / 2 + pi / 6).
Problem neumann(int dims, int stencil, int n) {
  const std::string X = "sin(pi*(x+0.25))", dX = "pi*cos(pi*(x+0.25))";
  const std::string Y = "sin(0.75*pi*y)", dY = "0.75*pi*cos(0.75*pi*y)";
  const std::string Z = "sin(0.5*pi*z+pi/6)", dZ = "0.5*pi*cos(0.5*pi*z+pi/6)";
  const std::string z = dims == 3 ? "*" + Z : "";
  const std::string u = X + "*" + Y + z;
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point Neumann, " +
           std::to_string(n) + " points";
  p.text = "grid: {points: " + points(dims, n) + ", extent: " +
           (dims == 2 ? "[1, 1]" : "[1, 1, 1]") + "}\nstencil: " + std::to_string(stencil) +
           "\nproblem: {equation: poisson, source: '" + (dims == 2 ? "25/16" : "29/16") +
           "*pi^2*" + u + "'}\nboundary:\n  default: {type: dirichlet, value: '" + u +
           "'}\n  x_min: {type: neumann, gradient: '-" + dX + "*" + Y + z +
           "'}\n  x_max: {type: neumann, gradient: '" + dX + "*" + Y + z +
           "'}\n  y_max: {type: neumann, gradient: '" + X + "*" + dY + z + "'}\n" +
           (dims == 3 ? "  z_max: {type: neumann, gradient: '" + X + "*" + Y + "*" + dZ + "'}\n"
                      : std::string());
  p.exact = [dims](double x, double y, double zc) {
    return std::sin(M_PI * (x + 0.25)) * std::sin(0.75 * M_PI * y) *
           (dims == 3 ? std::sin(0.5 * M_PI * zc + M_PI / 6) : 1.0);
  };
  return p;
}

/// x periodic (h = 1 / n), a Neumann y_max and Dirichlet elsewhere: u = sin(2 pi x) Y (Z),
/// Y = sin(3 pi y / 4), Z = sin(pi z): -lap u = (4 + 9/16 (+ 1)) pi^2 u.
Problem periodic(int dims, int stencil, int n) {
  const std::string Y = "sin(0.75*pi*y)", dY = "0.75*pi*cos(0.75*pi*y)";
  const std::string z = dims == 3 ? "*sin(pi*z)" : "";
  const std::string u = "sin(2*pi*x)*" + Y + z;
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point periodic x, " +
           std::to_string(n) + " points";
  const std::string pts = dims == 2 ? "[" + std::to_string(n - 1) + ", " + std::to_string(n) + "]"
                                    : "[" + std::to_string(n - 1) + ", " + std::to_string(n) +
                                          ", " + std::to_string(n) + "]";
  p.text = "grid: {points: " + pts + ", extent: " + (dims == 2 ? "[1, 1]" : "[1, 1, 1]") +
           "}\nstencil: " + std::to_string(stencil) + "\nproblem: {equation: poisson, source: '" +
           (dims == 2 ? "73/16" : "89/16") + "*pi^2*" + u +
           "'}\nboundary:\n  default: {type: dirichlet, value: 0}\n"
           "  x_min: {type: periodic}\n  x_max: {type: periodic}\n"
           "  y_max: {type: neumann, gradient: 'sin(2*pi*x)*" +
           dY + z + "'}\n";
  p.exact = [dims](double x, double y, double zc) {
    return std::sin(2 * M_PI * x) * std::sin(0.75 * M_PI * y) *
           (dims == 3 ? std::sin(M_PI * zc) : 1.0);
  };
  return p;
}

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
