// Heterogeneous media on the backend under test (CPU here, CUDA in the GPU executable): layered
// media against their exact discrete solution (the flux is the same through every face, so u
// is the sum of face resistances), held nodes, and multigrid's iteration counts on a
// checkerboard bounded as the grid is refined.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "solve_support.hpp"

namespace fdsolve::test {
namespace {

/// The exact discrete solution of -(beta u')' = 0 on n nodes of [0, 1] with u(0) = 0 and
/// u(1) = 1, beta(x) node by node and the harmonic mean on each face: u_i is the sum of the face
/// resistances h / beta_f up to node i, over the whole sum.
template <typename Beta>
std::vector<double> layered_exact(int n, Beta beta, int held_from = -1, double held = 1.0) {
  const double h = 1.0 / (n - 1);
  const int last = held_from >= 0 ? held_from : n - 1;  // the node whose value is fixed
  const double end = held_from >= 0 ? held : 1.0;
  std::vector<double> r(static_cast<std::size_t>(n), 0.0);
  for (int i = 1; i <= last; ++i) {
    const double a = beta((i - 1) * h), b = beta(i * h);
    r[i] = r[i - 1] + h / (2 * a * b / (a + b));
  }
  std::vector<double> u(static_cast<std::size_t>(n), end);
  for (int i = 0; i <= last; ++i) u[i] = end * r[i] / r[last];
  return u;
}

std::string layered_case(int n, int dims, const std::string& coefficient,
                         const std::string& extra = "", const std::string& method = "multigrid") {
  const std::string points = dims == 2 ? fmt::format("[{}, {}]", n, 9) : fmt::format("[{}, 9, 9]", n);
  const std::string extent = dims == 2 ? "[1, 1]" : "[1, 1, 1]";
  std::string text = fmt::format(
      "grid: {{points: {}, extent: {}}}\nstencil: {}\nproblem: {{equation: laplace, coefficient: "
      "\"{}\"{}}}\nboundary:\n  default: {{type: neumann, gradient: 0}}\n  x_min: {{type: "
      "dirichlet, value: 0}}\n  x_max: {{type: dirichlet, value: 1}}\nsolve: {{method: "
      "{}, tolerance: 1.0e-10{}}}\n",
      points, extent, dims == 2 ? 5 : 7, coefficient, extra, method,
      method == "jacobi" ? ", max_iterations: 300" : "");
  return text;
}

/// The largest difference between the snapshot and `exact` (a function of x alone).
double layered_error(const Solved& s, const std::vector<double>& exact) {
  const auto& g = s.final.info.grid;
  double err = 0;
  for (std::int64_t k = 0; k < g.points[2]; ++k)
    for (std::int64_t j = 0; j < g.points[1]; ++j)
      for (std::int64_t i = 0; i < g.points[0]; ++i)
        err = std::max(err, std::fabs(s.u()[static_cast<std::size_t>(
                                          (k * g.points[1] + j) * g.points[0] + i)] -
                                      exact[static_cast<std::size_t>(i)]));
  return err;
}

}  // namespace

TEST_CASE("media: a layered medium gives its exact piecewise-linear solution") {
  const auto beta = [](double x) { return x < 0.5 ? 1.0 : 10.0; };
  const std::string coefficient = "x < 0.5 ? 1 : 10";
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    const int n = dims == 2 ? 65 : 33;
    const auto exact = layered_exact(n, beta);
    const Solved d = solve_text<double>(layered_case(n, dims, coefficient), {}, true);
    CHECK(d.result.status == SolveStatus::Converged);
    CHECK(layered_error(d, exact) < 1e-9);
    const Solved f = solve_text<float>(
        layered_case(n, dims, coefficient) + "precision: float\n", {}, true);
    CHECK(layered_error(f, exact) < 1e-4);
  }
}

TEST_CASE("media: held nodes keep their value and act as a Dirichlet face inside the grid") {
  // Nodes x >= 0.75 held at 2: the rest is the layered solution between 0 and the first held
  // node.
  const int n = 65;
  const auto beta = [](double x) { return x < 0.5 ? 1.0 : 10.0; };
  auto exact = layered_exact(n, beta, 48, 2.0);
  exact[n - 1] = 1.0;  // the Dirichlet face wins over the region
  const Solved s = solve_text<double>(
      layered_case(n, 2, "x < 0.5 ? 1 : 10",
                   ", fixed: [{where: \"x >= 0.75 - 1e-9\", value: 2}]"),
      {}, true);
  CHECK(s.result.status == SolveStatus::Converged);
  CHECK(layered_error(s, exact) < 1e-9);
  // Jacobi keeps the held nodes too (a few hundred sweeps: not converged, still held).
  const Solved j = solve_text<double>(
      layered_case(n, 2, "x < 0.5 ? 1 : 10", ", fixed: [{where: \"x >= 0.75 - 1e-9\", value: 2}]",
                   "jacobi"),
      {}, true);
  const auto& g = j.final.info.grid;
  for (std::int64_t row = 0; row < g.points[1]; ++row)
    for (std::int64_t i = 48; i < g.points[0] - 1; ++i)
      CHECK(j.u()[static_cast<std::size_t>(row * g.points[0] + i)] == 2.0);
}

TEST_CASE("media: CG + multigrid iterations on a checkerboard stay bounded as the grid refines") {
  // 4x4 checkerboard, f = 1, u = 0 on the boundary; iterations to 1e-8 at contrasts 1e2 and
  // 1e4 (1e6 reaches the double rounding floor first: docs/numerics.md).
  for (const char* contrast : {"100", "1e4"}) {
    std::vector<std::int64_t> iterations;
    for (const int n : {65, 129}) {
      const Solved s = solve_text<double>(
          fmt::format("grid: {{points: [{}, {}], extent: [1, 1]}}\nproblem: {{equation: "
                      "poisson, source: 1, coefficient: \"mod(floor(4*x) + floor(4*y), 2) == 0 "
                      "? {} : 1\"}}\nsolve: {{tolerance: 1.0e-8}}\n",
                      n, n, contrast),
          {}, true);
      CAPTURE(contrast);
      CAPTURE(n);
      CHECK(s.result.status == SolveStatus::Converged);
      iterations.push_back(s.result.iterations);
    }
    CHECK(iterations[0] <= 20);
    CHECK(iterations[1] <= 20);
    CHECK(std::abs(iterations[1] - iterations[0]) <= 3);
  }
}


TEST_CASE("media: backward-Euler steps with a layered diffusivity reach the exact steady state") {
  // Steps of dt = 100 damp every mode by at least 1 / (1 + 100 pi^2) per step: five of them from
  // u = 0 leave the steady layered solution to rounding (and a held slab x >= 0.75 at 1 the
  // same, with that node as the end of the layers).
  const auto k = [](double x) { return x < 0.5 ? 1.0 : 10.0; };
  const int n = 33;
  const auto exact = layered_exact(n, k);
  const auto exact_held = layered_exact(n, k, 24, 1.0);  // node 24 is x = 0.75
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    std::string text = layered_case(n, dims, "x < 0.5 ? 1 : 10");
    const auto replace = [&](const std::string& from, const std::string& to) {
      text.replace(text.find(from), from.size(), to);
    };
    replace("equation: laplace, coefficient:", "equation: heat, diffusivity:");
    replace("solve: {method: multigrid, tolerance: 1.0e-10",
            "time: {scheme: implicit, dt: 100, end: 500}\nsolve: {tolerance: 1.0e-12");
    const Solved d = solve_text<double>(text, {}, true);
    CHECK(d.result.status == SolveStatus::Completed);
    CHECK(layered_error(d, exact) < 1e-9);
    const std::string held = text.substr(0, text.find("}\nboundary")) +
                             ", fixed: [{where: \"x >= 0.75\", value: 1}]" +
                             text.substr(text.find("}\nboundary"));
    const Solved h = solve_text<double>(held, {}, true);
    CHECK(h.result.status == SolveStatus::Completed);
    CHECK(layered_error(h, exact_held) < 1e-9);
    const Solved f = solve_text<float>(text + "precision: float\n", {}, true);
    CHECK(layered_error(f, exact) < 1e-4);
  }
}

}  // namespace fdsolve::test
