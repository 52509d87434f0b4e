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

/// The mode's amplitude after `end` with steps of dt, the last shortened to land on end; CN
/// starts with `startup` backward-Euler steps of dt/2 (time.startup_steps, default 2).
double amplification(bool cn, double dt, double end, double k, double lambda, int startup = 2) {
  const double begun = cn ? startup * dt / 2 : 0.0;
  const double start = cn ? std::pow(be_factor(dt / 2 * k * lambda), startup) : 1.0;
  const auto steps = static_cast<std::int64_t>(std::ceil((end - begun) / dt - 1e-6));
  const double last = end - begun - static_cast<double>(steps - 1) * dt;
  const auto g = [&](double step) {
    return cn ? cn_factor(step * k * lambda) : be_factor(step * k * lambda);
  };
  return start * std::pow(g(dt), static_cast<double>(steps - 1)) * g(last);
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
    CHECK(s.result.iterations == (cn ? 18 : 17));  // CN: two half steps, then 16
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
    CHECK(s.result.iterations == (std::string(scheme) == "implicit" ? 20 : 21));
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
  // trapezoid is exact for it (without the backward-Euler start); BE errs by O(dt), and so
  // does the start, by O(dt^2) at the end. dt = 0.01 does not divide end = 0.105.
  const auto text = [](const char* scheme, double dt, const char* extra = "") {
    return fmt::format(
        "grid: {{points: [9, 9], extent: [1, 0.8]}}\n"
        "problem: {{equation: heat, diffusivity: 0.25, source: '2*t*x'}}\n"
        "boundary:\n"
        "  default: {{type: dirichlet, value: 'x^2 + y^2 + t + t^2*x'}}\n"
        "  x_max: {{type: neumann, gradient: '2 + t^2'}}\n"
        "initial: 'x^2 + y^2'\n"
        "time: {{scheme: {}, end: 0.105, dt: {}{}}}\nsolve: {{tolerance: 1e-13}}\n",
        scheme, dt, extra);
  };
  const double t = 0.105;
  const auto exact = [&](double x, double y, double) { return x * x + y * y + t + t * t * x; };
  const Solved cn = solve_text(text("crank-nicolson", 0.01, ", startup_steps: 0"), {}, true);
  CHECK(cn.result.iterations == 11);
  CHECK(max_error(cn, exact) < 1e-11);
  // With the start: 2 half steps + 10 steps; second order in dt.
  const Solved started = solve_text(text("crank-nicolson", 0.01), {}, true);
  CHECK(started.result.iterations == 12);
  const double s1 = max_error(started, exact);
  const double s2 = max_error(solve_text(text("crank-nicolson", 0.005), {}, true), exact);
  CHECK(s1 > 1e-9);
  CHECK(std::log2(s1 / s2) == doctest::Approx(2.0).epsilon(0.1));
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
  CHECK(a.result.iterations == 14);
}

namespace {

/// The largest node-to-node oscillation along x: over every row, the smaller of two
/// consecutive differences that have opposite signs (a zigzag; a smooth field has none beyond
/// its rounding, and at an extremum both differences are small).
double zigzag(const Solved& s) {
  const auto& g = s.final.info.grid;
  double worst = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 1; i + 1 < g.points[0]; ++i) {
      const auto at = [&](std::int64_t a) {
        return s.u()[static_cast<std::size_t>(j * g.points[0] + a)];
      };
      const double left = at(i) - at(i - 1), right = at(i + 1) - at(i);
      if (left * right < 0) worst = std::max(worst, std::min(std::fabs(left), std::fabs(right)));
    }
  return worst;
}

/// A jump: u = 1 inside, 0 on the Dirichlet boundary, 65x65, k = 1, Crank-Nicolson steps of
/// 200x the explicit limit h^2 / 4.
std::string jump_case(int steps, const char* extra) {
  const double h = 1.0 / 64, dt = 200 * h * h / 4;
  return fmt::format(
      "grid: {{points: [65, 65], extent: [1, 1]}}\nproblem: {{equation: heat}}\n"
      "initial: 1\nboundary: {{default: {{type: dirichlet, value: 0}}}}\n"
      "time: {{scheme: crank-nicolson, end: {}, dt: {}{}}}\n",
      steps * dt, dt, extra);
}

/// heat_plate at 129x65: the left edge switched to 1 at t = 0, insulated top and bottom;
/// Crank-Nicolson steps of dt = 5e-4 (33x the explicit limit).
std::string plate_case(const char* extra, const char* solve = "") {
  return fmt::format(
      "grid: {{points: [129, 65], extent: [1, 0.5]}}\nproblem: {{equation: heat}}\n"
      "boundary:\n  default: {{type: neumann, gradient: 0}}\n"
      "  x_min: {{type: dirichlet, value: 1}}\n  x_max: {{type: dirichlet, value: 0}}\n"
      "initial: 0\ntime: {{scheme: crank-nicolson, end: 0.02, dt: 5e-4{}}}\n"
      "solve: {{tolerance: 1e-6{}}}\n",
      extra, solve);
}

std::int64_t total_cycles(const Solved& s) {
  std::int64_t n = 0;
  for (const output::HistoryRow& row : s.history) n += row.cycles;
  return n;
}

double max_difference(const Solved& a, const Solved& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.u().size(); ++i) d = std::max(d, std::fabs(a.u()[i] - b.u()[i]));
  return d;
}

}  // namespace

PROBLEM_TEST("implicit heat: the backward-Euler start removes Crank-Nicolson's ringing") {
  // The highest mode's CN factor at r = 200 is -0.990 per step: after 4 steps plain CN still
  // rings at the jump; two half steps of backward Euler multiply it by 1/201^2 first.
  const Solved plain = solve_text(jump_case(4, ", startup_steps: 0"), {}, true);
  const Solved started = solve_text(jump_case(4, ""), {}, true);
  CHECK(started.result.iterations == 5);  // two half steps, then three of dt
  CAPTURE(zigzag(plain));
  CAPTURE(zigzag(started));
  CHECK(zigzag(plain) > 0.1);
  CHECK(zigzag(started) < 2e-3);
  CHECK(zigzag(started) < zigzag(plain) / 100);
  for (const double v : started.u()) CHECK((v >= 0 && v <= 1));  // and no over- or undershoot
}

PROBLEM_TEST("implicit heat: the extrapolated start gives the same answer in fewer cycles") {
  // Both runs solve each step to the tolerance: against a run solved to 1e-12 they differ by
  // what the tolerance allows, and the extrapolation leaves less to solve.
  const Solved exact = solve_text(plate_case(", extrapolate: false", ", absolute_tolerance: 1e-14"
                                                                     ", max_iterations: 100"),
                                  {}, true);
  const Solved old_u = solve_text(plate_case(", extrapolate: false"), {}, true);
  const Solved extrapolated = solve_text(plate_case(""), {}, true);
  REQUIRE(extrapolated.result.status == SolveStatus::Completed);
  CAPTURE(total_cycles(old_u));
  CAPTURE(total_cycles(extrapolated));
  CHECK(total_cycles(extrapolated) < total_cycles(old_u));
  CHECK(max_difference(old_u, exact) < 1e-5);
  CHECK(max_difference(extrapolated, exact) < 1e-5);
  for (const output::HistoryRow& row : extrapolated.history) CHECK(row.factor <= 1e-6);
}

PROBLEM_TEST("implicit heat: predicted unchecked cycles give the per-cycle step") {
  using Checks = SolveOptions::CycleChecks;
  SolveOptions every, predicted;
  every.cycle_checks = Checks::EveryCycle;
  predicted.cycle_checks = Checks::Predicted;
  const Solved a = solve_text(plate_case(""), every, true);
  const Solved b = solve_text(plate_case(""), predicted, true);
  const Solved again = solve_text(plate_case(""), predicted, true);
  REQUIRE(a.history.size() == b.history.size());
  // Each step runs at least the cycles the per-cycle test runs; where the prediction did not
  // overshoot, the cycles and the residual are the same, bit for bit, and so is the field
  // when no step overshot.
  bool overshot = false;
  for (std::size_t i = 0; i < a.history.size(); ++i) {
    CAPTURE(i);
    CHECK(b.history[i].factor <= 1e-6);
    if (!overshot && b.history[i].cycles == a.history[i].cycles) {
      CHECK(b.history[i].norm_l2 == a.history[i].norm_l2);
    } else {
      overshot = true;
      CHECK(b.history[i].cycles >= 1);
    }
  }
  if (!overshot) CHECK(std::memcmp(a.u().data(), b.u().data(), a.u().size() * sizeof(double)) == 0);
  CHECK(max_difference(a, b) < 1e-5);
  CHECK(std::memcmp(b.u().data(), again.u().data(), b.u().size() * sizeof(double)) == 0);
}

TEST_SUITE_END();
