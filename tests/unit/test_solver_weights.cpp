// Stencil weights against the formulas of docs/numerics.md, computed by hand here.
#include <doctest/doctest.h>

#include "case_reader.hpp"
#include "loop/stability.hpp"
#include "problem/weights.hpp"

#include <string>
#include <utility>
#include <vector>

using namespace fdsolve;

namespace {
Case make_case(const std::string& yaml) { return parse_case(yaml, "w.yaml"); }
}  // namespace

TEST_CASE("solver: 5-point Laplace weights are 1/4 on a uniform grid") {
  const auto e = equation_weights(make_case("grid: {points: [5, 5]}"));
  CHECK(e.weights.points == 5);
  CHECK(e.weights.center == 0);
  CHECK(e.weights.face[0] == doctest::Approx(0.25));
  CHECK(e.weights.face[1] == doctest::Approx(0.25));
  CHECK(e.weights.source == 0);
}

TEST_CASE("solver: 5-point weights follow per-axis spacing") {
  // hx = 1/4, hy = 1/2: 1/hx^2 = 16, 1/hy^2 = 4, denominator 2*(16+4) = 40.
  const auto e = equation_weights(
      make_case("grid: {points: [5, 3], extent: [1.0, 1.0]}\nproblem: {equation: poisson, "
                "source: 2}"));
  CHECK(e.weights.face[0] == doctest::Approx(16.0 / 40));
  CHECK(e.weights.face[1] == doctest::Approx(4.0 / 40));
  CHECK(e.source_scale == doctest::Approx(1.0 / 40));
  CHECK(e.weights.source == doctest::Approx(2.0 / 40));
}

TEST_CASE("solver: 7, 19 and 27-point Poisson weights") {
  // h = 0.5 on every axis (extent 2, 5 points).
  const std::string grid =
      "grid: {points: [5, 5, 5], extent: [2, 2, 2]}\n"
      "problem: {equation: poisson, source: 3}\n";
  const auto e7 = equation_weights(make_case(grid + "stencil: 7"));
  CHECK(e7.weights.face[2] == doctest::Approx(1.0 / 6));
  CHECK(e7.weights.source == doctest::Approx(0.25 * 3 / 6));
  const auto e19 = equation_weights(make_case(grid + "stencil: 19"));
  CHECK(e19.weights.face[0] == doctest::Approx(2.0 / 24));
  CHECK(e19.weights.edge == doctest::Approx(1.0 / 24));
  CHECK(e19.weights.corner == 0);
  CHECK(e19.weights.source == doctest::Approx(6 * 0.25 * 3 / 24));
  const auto e27 = equation_weights(make_case(grid + "stencil: 27"));
  CHECK(e27.weights.face[1] == doctest::Approx(14.0 / 128));
  CHECK(e27.weights.edge == doctest::Approx(3.0 / 128));
  CHECK(e27.weights.corner == doctest::Approx(1.0 / 128));
  CHECK(e27.weights.source == doctest::Approx(30 * 0.25 * 3 / 128));
  // Consistency: the neighbour weights of a Laplace stencil sum to 1.
  CHECK(6 * e27.weights.face[0] + 12 * e27.weights.edge + 8 * e27.weights.corner ==
        doctest::Approx(1.0));
  CHECK(6 * e19.weights.face[0] + 12 * e19.weights.edge == doctest::Approx(1.0));
}

TEST_CASE("solver: custom weights are taken as given with no source") {
  const auto e = equation_weights(make_case(
      "grid: {points: [4, 4, 4]}\nproblem: {equation: custom}\n"
      "stencil: {points: 27, weights: {center: 0.5, face: 0.1, edge: 0.01, corner: 0.001}}"));
  CHECK(e.weights.points == 27);
  CHECK(e.weights.center == 0.5);
  CHECK(e.weights.face[2] == 0.1);
  CHECK(e.weights.edge == 0.01);
  CHECK(e.weights.corner == 0.001);
  CHECK(e.weights.source == 0);
}

TEST_CASE("heat: the stability limit of each stencil matches the hand-derived von Neumann bound") {
  // Uniform h, k = 2: 5 points h^2/4k, 7 points h^2/6k, 19 points 3h^2/8k, 27 points 15h^2/46k
  // (the Laplacian's symbol at the corners of the frequency cube, worked out by hand from
  // The weights of docs/numerics.md: 27 points peak at -184/(30 h^2), 19 points at -32/(6 h^2)).
  const double h = 0.05, k = 2.0;
  const auto limit = [&](const std::string& grid_and_stencil) {
    return heat_stability_limit(parse_case(grid_and_stencil +
                                               "problem: {equation: heat, diffusivity: 2}\n",
                                           "h.yaml"));
  };
  CHECK(limit("grid: {points: [21, 21], extent: [1, 1]}\n") ==
        doctest::Approx(h * h / (4 * k)).epsilon(1e-12));
  for (const auto& [points, factor] :
       std::vector<std::pair<int, double>>{{7, 1.0 / 6}, {19, 3.0 / 8}, {27, 15.0 / 46}}) {
    CAPTURE(points);
    CHECK(limit("grid: {points: [21, 21, 21], extent: [1, 1, 1]}\nstencil: " +
                std::to_string(points) + "\n") ==
          doctest::Approx(factor * h * h / k).epsilon(1e-12));
  }
  // Per-axis spacing (5 points): 1 / (2k (1/hx^2 + 1/hy^2)).
  const double hx = 0.05, hy = 0.1;
  CHECK(limit("grid: {points: [21, 11], extent: [1, 1]}\n") ==
        doctest::Approx(1 / (2 * k * (1 / (hx * hx) + 1 / (hy * hy)))).epsilon(1e-12));
}

TEST_CASE("heat: a capacity that is a number steps by dt / c, and its limit is c times k's") {
  // c u_t = k lap u + q with c = 4, k = 2, q = 3 on h = 0.05 (5 points): the step of dt / 4.
  const double h = 0.05, k = 2.0, c = 4.0, dt = 1e-4;
  const Case with = make_case(
      "grid: {points: [21, 21], extent: [1, 1]}\n"
      "problem: {equation: heat, diffusivity: 2, capacity: 4, source: 3}\n");
  const auto e = heat_step_weights(with, dt);
  const double r = dt / c * k / (h * h);  // each neighbour's weight
  CHECK(e.weights.face[0] == doctest::Approx(r).epsilon(1e-14));
  CHECK(e.weights.face[1] == doctest::Approx(r).epsilon(1e-14));
  CHECK(e.weights.center == doctest::Approx(1 - 4 * r).epsilon(1e-14));
  CHECK(e.source_scale == doctest::Approx(dt / c).epsilon(1e-15));
  CHECK(e.weights.source == doctest::Approx(3 * dt / c).epsilon(1e-14));
  CHECK(heat_stability_limit(with) == doctest::Approx(c * h * h / (4 * k)).epsilon(1e-12));
  // capacity: 1 is the case without the key, bit for bit.
  const Case one = make_case(
      "grid: {points: [21, 21], extent: [1, 1]}\n"
      "problem: {equation: heat, diffusivity: 2, capacity: 1, source: 3}\n");
  const Case none = make_case(
      "grid: {points: [21, 21], extent: [1, 1]}\n"
      "problem: {equation: heat, diffusivity: 2, source: 3}\n");
  const auto a = heat_step_weights(one, dt), b = heat_step_weights(none, dt);
  CHECK(a.weights.center == b.weights.center);
  CHECK(a.weights.face[0] == b.weights.face[0]);
  CHECK(a.weights.source == b.weights.source);
  CHECK(a.source_scale == b.source_scale);
  CHECK(heat_stability_limit(one) == heat_stability_limit(none));
}

TEST_CASE("heat: with a capacity that varies the limit is the smallest c_i / D_i") {
  // 5 x 3 nodes, h = 1/4 on x and 1/2 on y, k = 1, every face Neumann (each node's diagonal
  // D = 2 k / hx^2 + 2 k / hy^2 = 32 + 8 = 40, the mirrors included), c = 1 + x: the smallest
  // c / D at x = 0, 1 / 40. With c = 3 - x the smallest is at x = 1: 2 / 40.
  const std::string grid =
      "grid: {points: [5, 3], extent: [1, 1]}\nboundary: {default: {type: neumann}}\n";
  CHECK(heat_stability_limit(make_case(grid + "problem: {equation: heat, capacity: \"1 + x\"}\n")) ==
        doctest::Approx(1.0 / 40).epsilon(1e-14));
  CHECK(heat_stability_limit(make_case(grid + "problem: {equation: heat, capacity: \"3 - x\"}\n")) ==
        doctest::Approx(2.0 / 40).epsilon(1e-14));
  // A Dirichlet face holds its nodes: x_min's nodes (c = 1) drop out, the next column (x = 1/4,
  // c = 1.25) has the full diagonal 40.
  CHECK(heat_stability_limit(make_case(
            "grid: {points: [5, 3], extent: [1, 1]}\n"
            "boundary: {default: {type: neumann}, x_min: {type: dirichlet}}\n"
            "problem: {equation: heat, capacity: \"1 + x\"}\n")) ==
        doctest::Approx(1.25 / 40).epsilon(1e-14));
}
