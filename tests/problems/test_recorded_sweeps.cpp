// The Jacobi loop with its between-check sweeps recorded as blocks (CUDA graphs on the GPU)
// against the same loop sweeping one by one: every field, norm and history row bit-identical,
// with odd check periods (the buffers' parity), snapshots between checks, ghost fills and
// kernels of every family. Compiled into the unit tests (CPU) and the GPU tests (CUDA).
#include "solve_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;

TEST_SUITE_BEGIN("problems");

namespace {

/// solve_text with `output_keys` inside the output mapping (snapshot periods).
template <typename T>
Solved solve_with_output(const std::string& yaml, const std::string& output_keys,
                         const SolveOptions& options) {
  TempDir dir;
  const Case c = parse_case(
      yaml + "output: {directory: '" + dir.path.string() + "'" + output_keys + "}\n", "t.yaml");
  auto backend = backend_for_test<T>();
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  Solved s;
  s.result = solve_jacobi<T>(c, *backend, out, options);
  s.final = output::read_snapshot(out.snapshots().back());
  return s;
}

template <typename T>
void check_same(const std::string& yaml, const std::string& output_keys = "") {
  SolveOptions plain;
  plain.record_sweeps = false;
  const Solved a = solve_with_output<T>(yaml, output_keys, plain);
  const Solved b = solve_with_output<T>(yaml, output_keys, SolveOptions{});
  CHECK(a.result.iterations == b.result.iterations);
  CHECK(a.result.status == b.result.status);
  // Bit for bit: exact comparisons of doubles that hold the T values.
  CHECK(a.result.norm_l2 == b.result.norm_l2);
  CHECK(a.result.norm_linf == b.result.norm_linf);
  CHECK(a.u() == b.u());
  CHECK(a.final.fields == b.final.fields);
}

}  // namespace

PROBLEM_TEST("recorded sweeps: 2D Neumann and Dirichlet, odd check period, snapshots between") {
  const std::string yaml =
      "grid: {points: [67, 45]}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: \"x*y\"}\n"
      "  x_max: {type: neumann, gradient: 0.5}\n"
      "solve: {method: jacobi, tolerance: 0, max_iterations: 613, check_every: 99}\n";
  check_same<double>(yaml, ", every: 250");
  check_same<float>(yaml, ", every: 250");
}

PROBLEM_TEST("recorded sweeps: longer than one recording, every kernel family in 2D") {
  for (const char* kernel :
       FDSOLVE_TEST_CUDA ? std::vector<const char*>{"plain", "rows128g4", "rows32g4", "tile32x8r4"}
                         : std::vector<const char*>{"omp"}) {
    CAPTURE(kernel);
    check_same<float>(std::string("grid: {points: [131, 77]}\n"
                                  "boundary: {default: {type: dirichlet, value: 1}, "
                                  "y_min: {type: periodic}, y_max: {type: periodic}}\n"
                                  "solve: {method: jacobi, tolerance: 0, max_iterations: 1201, "
                                  "check_every: 100000}\n"
                                  "tuning: {kernel: ") +
                      kernel + "}\n");
  }
}

PROBLEM_TEST("recorded sweeps: 3D 27-point Poisson with a source field and periodic faces") {
  check_same<double>(
      "grid: {points: [21, 18, 23]}\n"
      "stencil: 27\n"
      "problem: {equation: poisson, source: \"x + y*z\"}\n"
      "boundary:\n"
      "  default: {type: dirichlet, value: 0}\n"
      "  z_min: {type: periodic}\n"
      "  z_max: {type: periodic}\n"
      "solve: {method: jacobi, tolerance: 0, max_iterations: 77, check_every: 10}\n");
}

PROBLEM_TEST("recorded sweeps: explicit heat, constant inputs") {
  check_same<double>(
      "grid: {points: [33, 29], extent: [1, 1]}\n"
      "problem: {equation: heat, source: 1}\n"
      "boundary: {default: {type: neumann, gradient: 0}, x_min: {type: dirichlet, value: 1}}\n"
      "time: {end: 0.05}\n"
      "solve: {check_every: 37}\n");
}

TEST_SUITE_END();
