// Temporal blocking in the Jacobi loop (tuning.blocked_kernel): the sweeps between checks run
// blocked and the run is bit-identical to the same run with single sweeps of the kernel the
// blocked variants reproduce (the CPU's omp, CUDA's plain); cases whose halo changes between
// sweeps (Neumann, periodic) must not block, so they too stay identical. Compiled into the unit
// tests (CPU) and the GPU tests (CUDA).
#include <cstring>

#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

namespace {

/// The single-sweep kernel whose sweeps the blocked variants reproduce bit for bit.
const char* reference_kernel() { return FDSOLVE_TEST_CUDA ? "plain" : "omp"; }

template <typename T>
void check_blocked_same(const std::string& yaml, int dims) {
  const std::string tuning = std::string("tuning: {kernel: ") + reference_kernel();
  const Solved single = solve_text<T>(yaml + tuning + "}\n");
  for (const std::string& name : backend_for_test<T>()->step_kernels(dims)) {
    CAPTURE(name);
    const Solved blocked = solve_text<T>(yaml + tuning + ", blocked_kernel: " + name + "}\n");
    CHECK(blocked.result.iterations == single.result.iterations);
    CHECK(blocked.result.status == single.result.status);
    CHECK(blocked.result.norm_l2 == single.result.norm_l2);
    REQUIRE(blocked.u().size() == single.u().size());
    CHECK(std::memcmp(blocked.u().data(), single.u().data(), single.u().size() * sizeof(double)) ==
          0);
  }
}

}  // namespace

PROBLEM_TEST("blocked sweeps between checks: 2D Poisson bit-identical to single sweeps") {
  // check_every 37 and snapshots every 100: blocks of 35 and 36 sweeps and shorter ones.
  const std::string yaml =
      "grid: {points: [70, 45]}\n"
      "problem: {equation: poisson, source: 'x*y'}\n"
      "boundary: {default: {type: dirichlet, value: 'x + y'}}\n"
      "solve: {tolerance: 0, max_iterations: 300, check_every: 37}\n";
  check_blocked_same<double>(yaml, 2);
  check_blocked_same<float>(yaml + "precision: float\n", 2);
}

PROBLEM_TEST("blocked sweeps between checks: 3D 7- and 27-point bit-identical to single sweeps") {
  for (const char* points : {"7", "27"}) {
    CAPTURE(points);
    const std::string yaml = std::string("grid: {points: [19, 14, 23]}\nstencil: ") + points +
                             "\nproblem: {equation: poisson, source: 1}\n"
                             "boundary: {default: {type: dirichlet, value: 'x - z'}}\n"
                             "solve: {tolerance: 0, max_iterations: 60, check_every: 13}\n";
    check_blocked_same<double>(yaml, 3);
  }
}

PROBLEM_TEST("blocked sweeps between checks: explicit heat steps bit-identical") {
  const std::string yaml =
      "grid: {points: [33, 29]}\n"
      "problem: {equation: heat, diffusivity: 1}\n"
      "initial: 'x*(1-x)*y'\n"
      "boundary: {default: {type: dirichlet, value: 0}}\n"
      "time: {end: 0.01, dt: 1.0e-4, scheme: explicit}\n"
      "solve: {check_every: 10}\n";
  check_blocked_same<double>(yaml, 2);
}

PROBLEM_TEST("blocked sweeps are refused where the halo changes between sweeps") {
  // Neumann and periodic faces refill ghosts before every sweep: blocking them would read
  // stale ghosts, so the loop must sweep singly and the results stay identical.
  check_blocked_same<double>(
      "grid: {points: [40, 30]}\n"
      "problem: {equation: poisson, source: 1}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: 0}\n"
      "  x_min: {type: periodic}\n"
      "  x_max: {type: periodic}\n"
      "  y_max: {type: neumann, gradient: 0.5}\n"
      "solve: {tolerance: 0, max_iterations: 90, check_every: 30}\n",
      2);
}

PROBLEM_TEST("an unknown tuning.blocked_kernel is bad input naming the variants") {
  CHECK_THROWS_WITH_AS(solve_text("grid: {points: [9, 9]}\ntuning: {blocked_kernel: nope}\n"),
                       doctest::Contains("tuning.blocked_kernel"), InputError);
}

TEST_SUITE_END();
