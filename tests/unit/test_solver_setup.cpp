// Problem set-up: the update box, Dirichlet values in face order, dense copies.
#include <doctest/doctest.h>

#include "case_reader.hpp"
#include "problem/problem_setup.hpp"

using namespace fdsolve;

TEST_CASE("solver: Dirichlet faces are excluded from the update box") {
  const Case c = parse_case("grid: {points: [6, 5, 4]}", "b.yaml");
  const Box b = update_box(c);
  CHECK(b.lo == std::array<index_t, 3>{1, 1, 1});
  CHECK(b.hi == std::array<index_t, 3>{5, 4, 3});
  const Case c2 = parse_case("grid: {points: [6, 5]}", "b.yaml");
  const Box b2 = update_box(c2);
  CHECK(b2.lo[2] == 0);
  CHECK(b2.hi[2] == 1);
  CHECK(b2.cells() == 4 * 3);
}

TEST_CASE("solver: shared edges take the later face's value") {
  const Case c = parse_case(
      "grid: {points: [4, 3]}\ninitial: 9\nboundary:\n  x_min: {value: 1}\n  x_max: {value: 2}\n"
      "  y_min: {value: 3}\n  y_max: {value: 4}\n",
      "e.yaml");
  const Layout L = field_layout(c, sizeof(double));
  const auto f = initial_field<double>(c, L);
  CHECK(f[L.at(1, 1)] == 9);  // interior keeps the initial value
  CHECK(f[L.at(0, 1)] == 1);
  CHECK(f[L.at(3, 1)] == 2);
  CHECK(f[L.at(1, 0)] == 3);
  CHECK(f[L.at(2, 2)] == 4);
  CHECK(f[L.at(0, 0)] == 3);  // y_min comes after x_min
  CHECK(f[L.at(3, 2)] == 4);  // y_max comes after x_max
  const auto dense = owned_dense(f, L);
  CHECK(dense.size() == 12);
  CHECK(dense[1 * 4 + 0] == 1);
  CHECK(dense[2 * 4 + 3] == 4);
}

TEST_CASE("solver: expression values are evaluated at node coordinates") {
  const Case c = parse_case(
      "grid: {points: [5, 3, 3], extent: [2, 1, 1], origin: [1, 0, -1]}\n"
      "initial: \"x + 10*y + 100*z\"\n"
      "problem: {equation: poisson, source: \"x*y\"}\n",
      "x.yaml");
  const Layout L = field_layout(c, sizeof(double));
  const auto f = initial_field<double>(c, L);
  // Node (2, 1, 1): x = 1 + 2*0.5 = 2, y = 0.5, z = -1 + 0.5 = -0.5.
  CHECK(f[L.at(2, 1, 1)] == doctest::Approx(2 + 5 - 50));
  const auto s = source_values<double>(c, L, 3.0);
  CHECK(s[L.at(2, 1, 1)] == doctest::Approx(3.0 * 2 * 0.5));
}
