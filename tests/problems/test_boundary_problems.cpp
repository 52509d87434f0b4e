// Each boundary type against solutions the discrete problem reproduces exactly: linear and
// quadratic fields with Neumann faces (the mirrored ghost is exact for them), a bilinear
// field with a gradient given as an expression, and periodic Poisson problems whose sine
// source is scaled by the stencil's own discrete eigenvalue. Compiled into the unit tests
// (CPU) and the GPU tests (CUDA).
#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

namespace {
const std::string kTight = "solve: {tolerance: 1.0e-14, check_every: 50}\n";
}  // namespace

PROBLEM_TEST("Neumann faces reproduce a linear solution (2D)") {
  // u = 1 + 2x: Dirichlet at x = 0, outward gradient +2 at x = 1, zero flux on y faces.
  const Solved s = solve_text(
      "grid: {points: [17, 13], extent: [1.0, 0.75]}\n"
      "boundary:\n"
      "  default: {type: neumann, gradient: 0}\n"
      "  x_min: {type: dirichlet, value: 1}\n"
      "  x_max: {type: neumann, gradient: 2}\n" +
      kTight);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(max_error(s, [](double x, double, double) { return 1 + 2 * x; }) < 1e-9);
}

PROBLEM_TEST("Neumann faces reproduce a quadratic Poisson solution with per-axis spacing") {
  // -lap u = -2 with u = x^2: u(0) = 0, du/dn = 2x = 2 at x = 1, zero flux on y faces.
  const Solved s = solve_text(
      "grid: {points: [21, 9], extent: [1.0, 0.4]}\n"
      "problem: {equation: poisson, source: -2}\n"
      "boundary:\n"
      "  default: {type: neumann, gradient: 0}\n"
      "  x_min: {type: dirichlet, value: 0}\n"
      "  x_max: {type: neumann, gradient: 2}\n" +
      kTight);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(max_error(s, [](double x, double, double) { return x * x; }) < 1e-9);
}

PROBLEM_TEST("a Neumann gradient given as an expression (u = x*y)") {
  // Harmonic and bilinear: du/dx = y on x_max, du/dy = x on y_max, u = 0 on x_min and y_min.
  const Solved s = solve_text(
      "grid: {points: [15, 19], extent: [1.0, 1.2], origin: [0.0, 0.0]}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: 0}\n"
      "  x_max: {type: neumann, gradient: y}\n"
      "  y_max: {type: neumann, gradient: x}\n" +
      kTight);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(max_error(s, [](double x, double y, double) { return x * y; }) < 1e-9);
}

PROBLEM_TEST("3D stencils with Neumann faces meeting at edges and corners reproduce u linear") {
  // u = 1 + x + 2y + 3z: Dirichlet on x_min and z_max, Neumann with the exact outward
  // gradients elsewhere, so edge and corner ghosts combine two or three mirrored faces.
  for (const char* points : {"7", "19", "27"}) {
    CAPTURE(points);
    const Solved s = solve_text(
        std::string("grid: {points: [9, 8, 10], extent: [0.8, 0.7, 0.9], origin: [0.5, 0, 0]}\n"
                    "stencil: ") +
        points +
        "\nboundary:\n"
        "  default: {type: dirichlet, value: '1 + x + 2*y + 3*z'}\n"
        "  x_max: {type: neumann, gradient: 1}\n"
        "  y_min: {type: neumann, gradient: -2}\n"
        "  y_max: {type: neumann, gradient: 2}\n"
        "  z_min: {type: neumann, gradient: -3}\n" +
        kTight);
    CHECK(s.result.status == SolveStatus::Converged);
    CHECK(max_error(s, [](double x, double y, double z) { return 1 + x + 2 * y + 3 * z; }) <
          1e-9);
  }
}

PROBLEM_TEST("periodic Poisson in 2D: a sine source scaled by the discrete eigenvalue") {
  // x periodic (h = 1/32), y Dirichlet. For u = sin(2 pi x) sin(pi y) the 5-point Laplacian
  // is -c u with c = 4/hx^2 sin^2(pi hx) + 4/hy^2 sin^2(pi hy / 2), so f = c u makes u the
  // exact discrete solution.
  const double hx = 1.0 / 32, hy = 1.0 / 16;
  const double c = 4 / (hx * hx) * std::pow(std::sin(M_PI * hx), 2) +
                   4 / (hy * hy) * std::pow(std::sin(M_PI * hy / 2), 2);
  char source[96];
  std::snprintf(source, sizeof source, "%.17g*sin(2*pi*x)*sin(pi*y)", c);
  const Solved s = solve_text(
      "grid: {points: [32, 17], extent: [1.0, 1.0]}\n"
      "problem: {equation: poisson, source: '" +
      std::string(source) + "'}\n" +
      "boundary:\n"
      "  default: {type: dirichlet, value: 0}\n"
      "  x_min: {type: periodic}\n"
      "  x_max: {type: periodic}\n" +
      kTight);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(s.final.info.grid.spacing[0] == doctest::Approx(hx).epsilon(1e-15));
  CHECK(max_error(s, [&](double x, double y, double) {
          return std::sin(2 * M_PI * x) * std::sin(M_PI * y);
        }) < 1e-9);
}

PROBLEM_TEST("periodic Poisson in 3D, 27 points: two periodic axes") {
  // u = sin(2 pi x) cos(2 pi y) sin(pi z) on x, y periodic (h = 1/16), z Dirichlet (h = 1/16).
  // The 27-point operator 30 h^2 L u = 14 F + 3 E + C - 128 u has the eigenvalue below, with
  // cx = cos(2 pi h), cy = cos(2 pi h), cz = cos(pi h).
  const double h = 1.0 / 16;
  const double cx = std::cos(2 * M_PI * h), cy = cx, cz = std::cos(M_PI * h);
  const double faces = 2 * (cx + cy + cz), edges = 4 * (cx * cy + cy * cz + cx * cz),
               corners = 8 * cx * cy * cz;
  const double c = -(14 * faces + 3 * edges + corners - 128) / (30 * h * h);
  char source[128];
  std::snprintf(source, sizeof source, "%.17g*sin(2*pi*x)*cos(2*pi*y)*sin(pi*z)", c);
  const Solved s = solve_text(std::string("grid: {points: [16, 16, 17], extent: [1, 1, 1]}\n"
                                          "stencil: 27\n"
                                          "problem: {equation: poisson, source: '") +
                              source +
                              "'}\n"
                              "boundary:\n"
                              "  default: {type: periodic}\n"
                              "  z_min: {type: dirichlet, value: 0}\n"
                              "  z_max: {type: dirichlet, value: 0}\n" +
                              kTight);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(max_error(s, [&](double x, double y, double z) {
          return std::sin(2 * M_PI * x) * std::cos(2 * M_PI * y) * std::sin(M_PI * z);
        }) < 1e-9);
}

TEST_SUITE_END();
