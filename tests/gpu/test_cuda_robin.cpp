// Robin faces on CUDA against the CPU backend: a multigrid-preconditioned CG solve (Galerkin and
// averaged coarse levels) and backward-Euler and Crank-Nicolson steps, whose fields agree to
// the rounding of the solve (the kernels round the per-node diagonal term as the CPU does, up
// to FMA contraction).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "solve_support.hpp"

namespace fdsolve::test {
namespace {

template <typename T>
Solved run_with(Backend<T>& backend, const std::string& yaml) {
  TempDir dir;
  const Case c =
      parse_case(yaml + "\noutput: {directory: '" + dir.path.string() + "'}\n", "t.yaml");
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  Solved s;
  s.result = solve_case<T>(c, backend, out, {});
  s.final = output::read_snapshot(out.snapshots().back());
  s.history = out.history();
  return s;
}

/// max |gpu - cpu| over max |cpu|.
double relative_difference(const Solved& gpu, const Solved& cpu) {
  REQUIRE(gpu.u().size() == cpu.u().size());
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < cpu.u().size(); ++i) {
    diff = std::max(diff, std::fabs(gpu.u()[i] - cpu.u()[i]));
    scale = std::max(scale, std::fabs(cpu.u()[i]));
  }
  return diff / scale;
}

void compare(const std::string& yaml, double tolerance) {
  auto gpu = make_cuda_backend<double>(0);
  auto cpu = make_cpu_backend<double>();
  const Solved g = run_with<double>(*gpu, yaml);
  const Solved c = run_with<double>(*cpu, yaml);
  CHECK(g.result.status == c.result.status);
  CHECK(relative_difference(g, c) < tolerance);
}

}  // namespace

TEST_CASE("gpu: a Robin CG + multigrid solve matches the CPU") {
  for (int n : {65, 61}) {  // Galerkin levels; averaged levels
    CAPTURE(n);
    compare(fmt::format("grid: {{points: [{}, {}], extent: [1, 1]}}\nproblem: {{equation: "
                        "poisson, source: \"1 + x*y\", coefficient: \"1 + 0.5*sin(3*x)\"}}\n"
                        "boundary:\n  default: {{type: robin, h: 5, ambient: \"0.3*y\"}}\n"
                        "  x_min: {{type: dirichlet, value: 0}}\nsolve: {{method: multigrid, "
                        "tolerance: 1.0e-12}}\n",
                        n, n),
            1e-9);
  }
  compare("grid: {points: [17, 17, 17], extent: [1, 1, 1]}\nproblem: {equation: poisson, "
          "source: 1}\nboundary:\n  default: {type: robin, h: 2, ambient: \"x\"}\nsolve: "
          "{method: multigrid, tolerance: 1.0e-12}\n",
          1e-9);
}

TEST_CASE("gpu: Robin backward Euler and Crank-Nicolson steps match the CPU") {
  for (const char* scheme : {"implicit", "crank-nicolson"}) {
    CAPTURE(scheme);
    compare(fmt::format("grid: {{points: [33, 33], extent: [1, 1]}}\nproblem: {{equation: heat, "
                        "diffusivity: \"1 + 0.5*x\", source: 1}}\ninitial: \"x*y\"\nboundary:\n"
                        "  default: {{type: robin, h: 3, ambient: \"0.2*sin(t) + 0.1*y\"}}\n"
                        "time: {{scheme: {}, dt: 0.01, end: 0.05}}\nsolve: {{tolerance: "
                        "1.0e-12}}\n",
                        scheme),
            1e-9);
  }
}

}  // namespace fdsolve::test
