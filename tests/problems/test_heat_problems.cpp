// The heat equation against exact answers: a Fourier mode decays by the explicit step's own
// amplification factor each step (and close to exp(-k |kappa|^2 t)); a quadratic-in-space,
// linear-in-time solution that the scheme reproduces exactly, with Dirichlet values, Neumann
// gradients and sources that depend on t; the stability limit, kept and broken.
#include "loop/stability.hpp"
#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

PROBLEM_TEST("heat: a 2D Fourier mode decays by the step's amplification factor") {
  // u0 = sin(pi x) sin(pi y), h = 1/32, k = 0.5: the 5-point Laplacian's eigenvalue is
  // lambda = -2 * 4/h^2 sin^2(pi h / 2), each step multiplies by 1 + dt k lambda.
  const double h = 1.0 / 32, k = 0.5, end = 0.05;
  const Solved s = solve_text(
      "grid: {points: [33, 33], extent: [1, 1]}\n"
      "problem: {equation: heat, diffusivity: 0.5}\n"
      "initial: 'sin(pi*x)*sin(pi*y)'\n"
      "time: {end: 0.05}\n");
  REQUIRE(s.result.status == SolveStatus::Completed);
  const double lambda = -2 * 4 / (h * h) * std::pow(std::sin(M_PI * h / 2), 2);
  // dt: auto is 0.9 x the limit h^2 / (4 k); the last step ends exactly on time.end.
  const double dt = 0.9 * h * h / (4 * k);
  const auto steps = static_cast<std::int64_t>(std::ceil(end / dt - 1e-6));
  const double last = end - (steps - 1) * dt;
  CHECK(s.result.iterations == steps);
  CHECK(s.final.info.time == doctest::Approx(end).epsilon(1e-14));
  const double factor = std::pow(1 + dt * k * lambda, steps - 1) * (1 + last * k * lambda);
  CHECK(max_error(s, [&](double x, double y, double) {
          return factor * std::sin(M_PI * x) * std::sin(M_PI * y);
        }) < 1e-12);
  // And the continuous decay exp(-2 pi^2 k t), to the scheme's O(h^2 + dt) accuracy.
  CHECK(factor == doctest::Approx(std::exp(-2 * M_PI * M_PI * k * end)).epsilon(2e-3));
}

PROBLEM_TEST("heat: a 3D 27-point mode with insulated (Neumann) x faces") {
  // u0 = cos(pi x) sin(pi y) sin(pi z): cos modes are exact eigenvectors of the mirrored
  // Neumann operator. 30 h^2 L = 14 F + 3 E + C - 128 (docs/numerics.md), cosines of pi h per axis.
  const double h = 1.0 / 16, k = 1.0;
  const Solved s = solve_text(
      "grid: {points: [17, 17, 17], extent: [1, 1, 1]}\n"
      "stencil: 27\n"
      "problem: {equation: heat}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: 0}\n"
      "  x_min: {type: neumann, gradient: 0}\n"
      "  x_max: {type: neumann, gradient: 0}\n"
      "initial: 'cos(pi*x)*sin(pi*y)*sin(pi*z)'\n"
      "time: {end: 0.01, dt: 0.001}\n");
  REQUIRE(s.result.status == SolveStatus::Completed);
  const double c = std::cos(M_PI * h);
  const double lambda =
      (14 * 6 * c + 3 * 12 * c * c + 8 * c * c * c - 128) / (30 * h * h);
  const double factor = std::pow(1 + 0.001 * k * lambda, 10);
  CHECK(s.result.iterations == 10);
  CHECK(max_error(s, [&](double x, double y, double z) {
          return factor * std::cos(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z);
        }) < 1e-12);
}

PROBLEM_TEST("heat: Dirichlet values and Neumann gradients that depend on t") {
  // u = x^2 + y^2 + 4kt + t x solves u_t = k lap u + q with q = x. Quadratic in space and
  // linear in time, it is reproduced exactly by the 5-point step and the mirrored ghost; the
  // Neumann gradient on x_max (x = 1) is 2x + t = 2 + t. dt = 0.001 does not divide the end
  // time 0.0505: the last step is half as long and still lands on the exact answer.
  const Solved s = solve_text(
      "grid: {points: [11, 9], extent: [1, 0.8]}\n"
      "problem: {equation: heat, diffusivity: 0.25, source: x}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: 'x^2 + y^2 + t + t*x'}\n"
      "  x_max: {type: neumann, gradient: '2 + t'}\n"
      "initial: 'x^2 + y^2'\n"
      "time: {end: 0.0505, dt: 0.001}\n");
  REQUIRE(s.result.status == SolveStatus::Completed);
  CHECK(s.result.iterations == 51);
  const double t = 0.0505;
  CHECK(max_error(s, [&](double x, double y, double) { return x * x + y * y + t + t * x; }) <
        1e-12);
}

PROBLEM_TEST("heat: a source that depends on t, with only Neumann faces") {
  // u0 = x^2 + y^2, q = 2t, k = 0.25, gradients of x^2 + y^2 on every face: each step adds
  // dt (4k + 2 t_n) everywhere, so u = x^2 + y^2 + 4k T + sum of 2 t_n dt_n exactly.
  const double k = 0.25, dt = 0.001, end = 0.0505;
  const Solved s = solve_text(
      "grid: {points: [11, 9], extent: [1, 0.8]}\n"
      "problem: {equation: heat, diffusivity: 0.25, source: '2*t'}\n"
      "boundary:\n"
      "  default: {type: neumann, gradient: 0}\n"
      "  x_max: {type: neumann, gradient: 2}\n"
      "  y_max: {type: neumann, gradient: 1.6}\n"
      "initial: 'x^2 + y^2'\n"
      "time: {end: 0.0505, dt: 0.001}\n");
  REQUIRE(s.result.status == SolveStatus::Completed);
  double forcing = 0;
  for (int n = 0; n < 50; ++n) forcing += 2 * (n * dt) * dt;
  forcing += 2 * (50 * dt) * (end - 50 * dt);
  CHECK(max_error(s, [&](double x, double y, double) {
          return x * x + y * y + 4 * k * end + forcing;
        }) < 1e-12);
}

PROBLEM_TEST("heat: dt at 0.95 x the limit stays bounded, at 1.05 x it is refused or blows up") {
  // 5-point, h = 1/32, k = 1: the limit is h^2 / (4 k) by hand.
  const double limit = 1.0 / (32.0 * 32.0 * 4.0);
  const std::string base =
      "grid: {points: [33, 33], extent: [1, 1]}\n"
      "problem: {equation: heat}\n"
      "initial: 'sin(pi*x)*sin(pi*y) + 0.01*sin(31*pi*x)*sin(31*pi*y)'\n"
      "solve: {check_every: 10}\n";
  const auto with_dt = [&](double factor) {
    char text[128];
    std::snprintf(text, sizeof text, "time: {end: %.17g, dt: %.17g}\n", 400 * factor * limit,
                  factor * limit);
    return base + text;
  };
  const Solved stable = solve_text(with_dt(0.95));
  CHECK(stable.result.status == SolveStatus::Completed);
  CHECK(max_error(stable, [](double, double, double) { return 0.0; }) <= 1.01);

  const Case unstable = parse_case(with_dt(1.05), "t.yaml");
  CHECK_THROWS_WITH_AS(heat_time_plan(unstable), doctest::Contains("stability limit"),
                       InputError);
  SolveOptions bypass;
  bypass.allow_unstable_dt = true;
  const Solved blown = solve_text(with_dt(1.05), bypass);
  CHECK(blown.result.status == SolveStatus::Diverged);
}

TEST_SUITE_END();
