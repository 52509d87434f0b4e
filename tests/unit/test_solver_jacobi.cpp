// The Jacobi loop against analytic solutions: an exactly representable harmonic function and
// the observed order of accuracy of Poisson problems with a known solution.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "case_reader.hpp"
#include "loop/jacobi.hpp"
#include "problem/problem_setup.hpp"
#include "snapshot.hpp"

using namespace fdsolve;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("fdsolve-jacobi-" + std::to_string(rd()));
  }
  ~TempDir() { fs::remove_all(path); }
};

struct Solved {
  SolveResult result;
  output::SnapshotData final;
};

Solved solve(const std::string& yaml) {
  TempDir dir;
  Case c = parse_case(yaml + "\noutput: {directory: '" + dir.path.string() + "'}", "t.yaml");
  auto backend = make_cpu_backend<double>();
  output::RunOutput out(c.output.directory, c.name, grid_meta(c), to_yaml(c));
  Solved s;
  s.result = solve_jacobi<double>(c, *backend, out, SolveOptions{});
  s.final = output::read_snapshot(out.snapshots().back());
  return s;
}

/// Max |u - exact| over the nodes of the final snapshot.
template <typename Exact>
double max_error(const output::SnapshotData& d, Exact exact) {
  const auto& g = d.info.grid;
  const auto it = std::find(d.names.begin(), d.names.end(), "u");
  REQUIRE(it != d.names.end());
  const auto& u = d.fields.at(static_cast<std::size_t>(it - d.names.begin()));
  double err = 0;
  for (std::int64_t k = 0; k < g.points[2]; ++k)
    for (std::int64_t j = 0; j < g.points[1]; ++j)
      for (std::int64_t i = 0; i < g.points[0]; ++i) {
        const double x = g.origin[0] + i * g.spacing[0], y = g.origin[1] + j * g.spacing[1],
                     z = g.origin[2] + k * g.spacing[2];
        const double v = u[static_cast<std::size_t>((k * g.points[1] + j) * g.points[0] + i)];
        err = std::max(err, std::fabs(v - exact(x, y, z)));
      }
  return err;
}

}  // namespace

TEST_CASE("solver: Laplace with u = x on the boundary converges to u = x") {
  const Solved s = solve(
      "grid: {points: [17, 13], extent: [1, 1]}\n"
      "boundary: {default: {type: dirichlet, value: x}}\n"
      "solve: {tolerance: 1.0e-13, check_every: 10}");
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(max_error(s.final, [](double x, double, double) { return x; }) < 1e-9);
}

TEST_CASE("solver: 2D 5-point Poisson is second-order accurate") {
  std::vector<double> errors;
  for (int n : {17, 33, 65}) {
    const Solved s =
        solve("grid: {points: [" + std::to_string(n) + ", " + std::to_string(n) +
              "], extent: [1, 1]}\nproblem: {equation: poisson, source: "
              "\"2*pi^2*sin(pi*x)*sin(pi*y)\"}\nsolve: {tolerance: 1.0e-11, check_every: 50}");
    REQUIRE(s.result.status == SolveStatus::Converged);
    errors.push_back(max_error(s.final, [](double x, double y, double) {
      return std::sin(M_PI * x) * std::sin(M_PI * y);
    }));
  }
  for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
    const double order = std::log2(errors[i] / errors[i + 1]);
    CHECK(order == doctest::Approx(2.0).epsilon(0.05));
  }
}

TEST_CASE("solver: 3D 27-point Poisson is second-order accurate") {
  std::vector<double> errors;
  for (int n : {9, 17, 33}) {
    const std::string p = std::to_string(n);
    const Solved s =
        solve("grid: {points: [" + p + ", " + p + ", " + p +
              "], extent: [1, 1, 1]}\nstencil: 27\n"
              "problem: {equation: poisson, source: \"3*pi^2*sin(pi*x)*sin(pi*y)*sin(pi*z)\"}\n"
              "solve: {tolerance: 1.0e-10, check_every: 50}");
    REQUIRE(s.result.status == SolveStatus::Converged);
    errors.push_back(max_error(s.final, [](double x, double y, double z) {
      return std::sin(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z);
    }));
  }
  for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
    const double order = std::log2(errors[i] / errors[i + 1]);
    CHECK(order == doctest::Approx(2.0).epsilon(0.08));
  }
}

TEST_CASE("solver: max_iterations stops unconverged and divergence is detected") {
  const Solved capped = solve(
      "grid: {points: [33, 33]}\nboundary: {y_max: {value: 1}}\n"
      "solve: {max_iterations: 40, check_every: 7}");
  CHECK(capped.result.status == SolveStatus::MaxIterations);
  CHECK(capped.result.iterations == 40);
  CHECK(capped.final.info.iteration == 40);

  // Weights summing to 1.5 amplify every mode: the norm grows without bound.
  const Solved blown = solve(
      "grid: {points: [9, 9]}\ninitial: 1\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.7, x: 0.2, y: 0.2}}\n"
      "solve: {check_every: 10, divergence_factor: 1.0e3}");
  CHECK(blown.result.status == SolveStatus::Diverged);
  CHECK(blown.result.iterations < 1000);
}
