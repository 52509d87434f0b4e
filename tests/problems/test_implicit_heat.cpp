// Implicit heat steps (backward Euler, Crank-Nicolson) against exact answers: a Fourier mode is
// an eigenvector of every stencil's Laplacian, so each step multiplies it by the scheme's
// discrete amplification (BE 1/(1 - dt k lambda), CN (1 + dt k lambda/2)/(1 - dt k lambda/2)),
// which the multigrid solve must reproduce to its tolerance; the order in time against the
// semi-discrete decay exp(k lambda t); stability far beyond the explicit limit; time-dependent
// Dirichlet, Neumann and source data whose exact solution is quadratic in space. Compiled for
// the CPU (unit) and CUDA (gpu) executables.
#include <fmt/format.h>

#include <cstring>

#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

namespace {

double be_factor(double z) { return 1.0 / (1.0 - z); }                  // z = dt k lambda
double cn_factor(double z) { return (1.0 + z / 2) / (1.0 - z / 2); }

/// The mode's amplitude after `end` with steps of dt, the last shortened to land on end.
double amplification(bool cn, double dt, double end, double k, double lambda) {
  const auto steps = static_cast<std::int64_t>(std::ceil(end / dt - 1e-6));
  const double last = end - static_cast<double>(steps - 1) * dt;
  const auto g = [&](double step) {
    return cn ? cn_factor(step * k * lambda) : be_factor(step * k * lambda);
  };
  return std::pow(g(dt), static_cast<double>(steps - 1)) * g(last);
}

/// The 2D sine mode case: 33x33, k = 0.5, u0 = sin(pi x) sin(pi y).
std::string mode_2d(const char* scheme, double dt, double end, const char* extra = "") {
  return fmt::format(
      "grid: {{points: [33, 33], extent: [1, 1]}}\n"
      "problem: {{equation: heat, diffusivity: 0.5}}\n"
      "initial: 'sin(pi*x)*sin(pi*y)'\n"
      "time: {{scheme: {}, end: {}, dt: {}}}\n"
      "solve: {{tolerance: 1e-12{}}}\n",
      scheme, end, dt, extra);
}

double lambda_5pt(double h) { return -2 * 4 / (h * h) * std::pow(std::sin(M_PI * h / 2), 2); }

}  // namespace

PROBLEM_TEST("implicit heat: a 2D mode decays by the discrete BE and CN factors") {
  const double h = 1.0 / 32, k = 0.5, end = 0.05, dt = 0.003;  // the last step is shorter
  for (const bool cn : {false, true}) {
    CAPTURE(cn);
    const Solved s = solve_text(mode_2d(cn ? "crank-nicolson" : "implicit", dt, end), {}, true);
    REQUIRE(s.result.status == SolveStatus::Completed);
    CHECK(s.result.iterations == 17);
    CHECK(s.final.info.time == doctest::Approx(end).epsilon(1e-14));
    const double f = amplification(cn, dt, end, k, lambda_5pt(h));
    CHECK(max_error(s, [&](double x, double y, double) {
            return f * std::sin(M_PI * x) * std::sin(M_PI * y);
          }) < 1e-10);
  }
}

PROBLEM_TEST("implicit heat: 3D modes on the 7-, 19- and 27-point stencils, every face type") {
  // 7 points, per-axis spacing, Dirichlet: lambda = sum_a -4/h_a^2 sin^2(pi h_a / 2).
  {
    const Solved s = solve_text(
        "grid: {points: [17, 9, 17], extent: [1, 1, 2]}\nstencil: 7\n"
        "problem: {equation: heat}\ninitial: 'sin(pi*x)*sin(pi*y)*sin(pi*z/2)'\n"
        "time: {scheme: implicit, end: 0.02, dt: 0.004}\nsolve: {tolerance: 1e-12}\n",
        {}, true);
    // Wavenumbers pi, pi, pi/2 at spacings 1/16, 1/8, 1/8.
    const auto axis = [](double kw, double ha) {
      return -4 / (ha * ha) * std::pow(std::sin(kw * ha / 2), 2);
    };
    const double lambda = axis(M_PI, 1.0 / 16) + axis(M_PI, 1.0 / 8) + axis(M_PI / 2, 1.0 / 8);
    const double f = amplification(false, 0.004, 0.02, 1.0, lambda);
    CHECK(max_error(s, [&](double x, double y, double z) {
            return f * std::sin(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z / 2);
          }) < 1e-10);
  }
  // 27 points, insulated x faces (cos modes are eigenvectors of the mirrored operator):
  // 30 h^2 L = 14 F + 3 E + C - 128 with cosines of pi h per axis.
  {
    const double h = 1.0 / 16;
    const Solved s = solve_text(
        "grid: {points: [17, 17, 17], extent: [1, 1, 1]}\nstencil: 27\n"
        "problem: {equation: heat}\n"
        "boundary:\n  default: {type: dirichlet, value: 0}\n"
        "  x_min: {type: neumann, gradient: 0}\n  x_max: {type: neumann, gradient: 0}\n"
        "initial: 'cos(pi*x)*sin(pi*y)*sin(pi*z)'\n"
        "time: {scheme: crank-nicolson, end: 0.01, dt: 0.0025}\nsolve: {tolerance: 1e-12}\n",
        {}, true);
    const double c = std::cos(M_PI * h);
    const double lambda = (14 * 6 * c + 3 * 12 * c * c + 8 * c * c * c - 128) / (30 * h * h);
    const double f = amplification(true, 0.0025, 0.01, 1.0, lambda);
    CHECK(max_error(s, [&](double x, double y, double z) {
            return f * std::cos(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z);
          }) < 1e-10);
  }
  // 19 points, periodic on every axis: 6 h^2 L = 2 F + E - 24, the mode sin(2 pi x) cos(2 pi y).
  {
    const double h = 1.0 / 16;
    const Solved s = solve_text(
        "grid: {points: [16, 16, 16], extent: [1, 1, 1]}\n"
        "stencil: 19\nproblem: {equation: heat}\nboundary: {default: {type: periodic}}\n"
        "initial: 'sin(2*pi*x)*cos(2*pi*y)'\n"
        "time: {scheme: crank-nicolson, end: 0.01, dt: 0.0025}\nsolve: {tolerance: 1e-12}\n",
        {}, true);
    const double c = std::cos(2 * M_PI * h);  // x and y; z is constant (cos 0 = 1)
    const double faces = 2 * (c + c + 1), edges = 4 * (c * c + c + c);
    const double lambda = (2 * faces + edges - 24) / (6 * h * h);
    const double f = amplification(true, 0.0025, 0.01, 1.0, lambda);
    CHECK(max_error(s, [&](double x, double y, double) {
            return f * std::sin(2 * M_PI * x) * std::cos(2 * M_PI * y);
          }) < 1e-10);
  }
}

PROBLEM_TEST("implicit heat: order in time 1 (BE) and 2 (CN) against the semi-discrete decay") {
  // Fixed grid; the reference is the exact-in-time decay exp(k lambda_h t) of the grid's own
  // mode, so the error is the scheme's time error alone.
  const double h = 1.0 / 32, k = 0.5, end = 0.2;
  const double exact = std::exp(k * lambda_5pt(h) * end);
  for (const bool cn : {false, true}) {
    double err[2];
    for (int r = 0; r < 2; ++r) {
      const double dt = end / (16 << r);
      const Solved s = solve_text(mode_2d(cn ? "crank-nicolson" : "implicit", dt, end), {}, true);
      err[r] = max_error(s, [&](double x, double y, double) {
        return exact * std::sin(M_PI * x) * std::sin(M_PI * y);
      });
    }
    const double order = std::log2(err[0] / err[1]);
    CAPTURE(cn);
    CHECK(order == doctest::Approx(cn ? 2.0 : 1.0).epsilon(0.1));
  }
}

PROBLEM_TEST("implicit heat: dt 100x the explicit limit stays bounded and decays") {
  // A sharp start: u = 1 inside, 0 on the boundary. The explicit limit is h^2 / (4 k).
  const double h = 1.0 / 64, limit = h * h / 4;
  for (const char* scheme : {"implicit", "crank-nicolson"}) {
    CAPTURE(scheme);
    const Solved s = solve_text(
        fmt::format("grid: {{points: [65, 65], extent: [1, 1]}}\nproblem: {{equation: heat}}\n"
                    "initial: 1\nboundary: {{default: {{type: dirichlet, value: 0}}}}\n"
                    "time: {{scheme: {}, end: {}, dt: {}}}\n",
                    scheme, 20 * 100 * limit, 100 * limit),
        {}, true);
    REQUIRE(s.result.status == SolveStatus::Completed);
    CHECK(s.result.iterations == 20);
    double sum_sq = 0, largest = 0;
    for (const double v : s.u()) {
      CHECK(std::isfinite(v));
      sum_sq += v * v;
      largest = std::max(largest, std::fabs(v));
    }
    // The smoothest mode decays by exp(-2 pi^2 t) ~ 0.38 at t = 0.024 (BE/CN a little less):
    // the l2 norm must fall below half the start's, and no value may exceed it.
    CHECK(std::sqrt(sum_sq / s.u().size()) < 0.5);
    CHECK(largest <= 1.0);
  }
}

PROBLEM_TEST("implicit heat: time-dependent Dirichlet, Neumann and source, exact in space") {
  // u = x^2 + y^2 + 4kt + t^2 x: quadratic in space (the 5-point Laplacian and the mirrored
  // Neumann ghost are exact), quadratic in time: u_t = 4k + 2 t x, so q = 2 t x. CN's
  // trapezoid is exact for it; BE errs by O(dt). dt = 0.01 does not divide end = 0.105.
  const auto text = [](const char* scheme, double dt) {
    return fmt::format(
        "grid: {{points: [9, 9], extent: [1, 0.8]}}\n"
        "problem: {{equation: heat, diffusivity: 0.25, source: '2*t*x'}}\n"
        "boundary:\n"
        "  default: {{type: dirichlet, value: 'x^2 + y^2 + t + t^2*x'}}\n"
        "  x_max: {{type: neumann, gradient: '2 + t^2'}}\n"
        "initial: 'x^2 + y^2'\n"
        "time: {{scheme: {}, end: 0.105, dt: {}}}\nsolve: {{tolerance: 1e-13}}\n",
        scheme, dt);
  };
  const double t = 0.105;
  const auto exact = [&](double x, double y, double) { return x * x + y * y + t + t * t * x; };
  const Solved cn = solve_text(text("crank-nicolson", 0.01), {}, true);
  CHECK(cn.result.iterations == 11);
  CHECK(max_error(cn, exact) < 1e-11);
  const double e1 = max_error(solve_text(text("implicit", 0.01), {}, true), exact);
  const double e2 = max_error(solve_text(text("implicit", 0.005), {}, true), exact);
  CHECK(e1 > 1e-5);
  CHECK(std::log2(e1 / e2) == doctest::Approx(1.0).epsilon(0.1));
}

PROBLEM_TEST("implicit heat: repeated float runs are bit-identical") {
  const std::string text = mode_2d("crank-nicolson", 0.004, 0.05, ", absolute_tolerance: 0");
  const Solved a = solve_text<float>(text, {}, true);
  const Solved b = solve_text<float>(text, {}, true);
  REQUIRE(a.u().size() == b.u().size());
  CHECK(std::memcmp(a.u().data(), b.u().data(), a.u().size() * sizeof(double)) == 0);
  CHECK(a.result.iterations == 13);
}

TEST_SUITE_END();
