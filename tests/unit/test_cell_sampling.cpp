// problem.sampling: cells on the host: the cells of a grid, values at cell centres, the faces as
// harmonic means of the cells beside them, the node means of cells (what a capacity sampled at
// cells takes), and the key's round trip through to_yaml. References are hand-computed.
#include <doctest/doctest.h>

#include <cmath>

#include "case_reader.hpp"
#include "operator/flux_levels.hpp"
#include "operator/medium.hpp"
#include "operator/medium_sample.hpp"

using namespace fdsolve;

namespace {

Case read(const std::string& yaml) { return parse_case(yaml, "case.yaml"); }

double harmonic(std::initializer_list<double> v) {
  double inverse = 0;
  for (double x : v) inverse += 1.0 / x;
  return static_cast<double>(v.size()) / inverse;
}

}  // namespace

TEST_CASE("cell sampling: cells per axis, centres and node means on a coefficient-like field") {
  // 4 x 3 nodes on [0, 3] x [0, 2] (h = 1): 3 x 2 cells, centres at 0.5, 1.5, 2.5 and 0.5, 1.5.
  const Case c = read("grid: {points: [4, 3], extent: [3, 2]}\n"
                      "problem: {coefficient: \"1 + x + 10*y\", sampling: cells}\n");
  const op::CellGrid g = op::CellGrid::of(c);
  CHECK(g.cells == std::array<index_t, 3>{3, 2, 1});
  const std::vector<double> cells = op::cell_values(c, c.problem.coefficient, "problem.coefficient");
  REQUIRE(cells.size() == 6);
  CHECK(cells[g.index(0, 0, 0)] == 1 + 0.5 + 5);
  CHECK(cells[g.index(2, 1, 0)] == 1 + 2.5 + 15);
  // A linear field's cell values average to the field at the interior nodes, and a boundary node
  // takes only the cells inside (a corner node its one cell).
  const std::vector<double> nodes = op::node_means_of_cells(g, cells);
  REQUIRE(nodes.size() == 12);
  CHECK(nodes[1 * 4 + 1] == doctest::Approx(1 + 1 + 10));   // node (1, 1): four cells
  CHECK(nodes[0] == cells[g.index(0, 0, 0)]);               // corner (0, 0): one cell
  CHECK(nodes[3] == cells[g.index(2, 0, 0)]);               // corner (3, 0)
  CHECK(nodes[1] == doctest::Approx((6.5 + 7.5) / 2));      // node (1, 0): two cells
  CHECK(nodes[2 * 4 + 0] == doctest::Approx(1 + 0.5 + 15)); // node (0, 2): cell (0, 1)
  // The one call a node quantity makes: node means under cells, node values under nodes.
  CHECK(op::sampled_node_values(c, c.problem.coefficient, "problem.coefficient") == nodes);
  const Case n = read("grid: {points: [4, 3], extent: [3, 2]}\n"
                      "problem: {coefficient: \"1 + x + 10*y\"}\n");
  const std::vector<double> at_nodes =
      op::sampled_node_values(n, n.problem.coefficient, "problem.coefficient");
  CHECK(at_nodes[2 * 4 + 3] == 1 + 3 + 20);
}

TEST_CASE("cell sampling: a periodic axis has as many cells as nodes and wraps") {
  const Case c = read("grid: {points: [4, 3], extent: [4, 2]}\n"
                      "problem: {coefficient: \"1 + x\", sampling: cells}\n"
                      "boundary: {x_min: {type: periodic}, x_max: {type: periodic}}\n");
  const op::CellGrid g = op::CellGrid::of(c);
  CHECK(g.cells == std::array<index_t, 3>{4, 2, 1});
  const std::vector<double> cells = op::cell_values(c, c.problem.coefficient, "problem.coefficient");
  CHECK(cells[g.index(3, 0, 0)] == 1 + 3.5);  // the wrap cell, between node 3 and node 0
  const std::vector<double> nodes = op::node_means_of_cells(g, cells);
  CHECK(nodes[0] == doctest::Approx((4.5 + 1.5) / 2));  // node 0: cells 3 and 0
  // The face of the wrap along x, from node 3 back to node 0: cell 3 of both rows at y = 0.
  CHECK(op::cell_face(g, cells, 0, {3, 0, 0}) == cells[g.index(3, 0, 0)]);
}

TEST_CASE("cell sampling: a face is the harmonic mean of the cells beside it") {
  // 2D: 3 x 3 nodes, cells a b / c d (a at the lower left).
  const Case c = read("grid: {points: [3, 3], extent: [2, 2]}\n"
                      "problem: {coefficient: \"x < 1 ? (y < 1 ? 1 : 3) : (y < 1 ? 2 : 4)\", "
                      "sampling: cells}\n");
  const op::CellGrid g = op::CellGrid::of(c);
  const auto cells = op::cell_values(c, c.problem.coefficient, "problem.coefficient");
  CHECK(cells == std::vector<double>{1, 2, 3, 4});
  // x-faces of node row j = 1 lie between the cell rows: both cells; on the boundary rows one.
  CHECK(op::cell_face(g, cells, 0, {0, 1, 0}) == doctest::Approx(harmonic({1, 3})));
  CHECK(op::cell_face(g, cells, 0, {1, 1, 0}) == doctest::Approx(harmonic({2, 4})));
  CHECK(op::cell_face(g, cells, 0, {0, 0, 0}) == 1);
  CHECK(op::cell_face(g, cells, 1, {2, 0, 0}) == 2);
  CHECK(op::cell_face(g, cells, 1, {1, 1, 0}) == doctest::Approx(harmonic({3, 4})));

  // 3D: the face between two nodes of the middle line has four cells around it.
  const Case d = read("grid: {points: [3, 3, 3], extent: [2, 2, 2]}\nstencil: 7\n"
                      "problem: {coefficient: \"1 + (y > 1) + 2*(z > 1)\", sampling: cells}\n");
  const op::CellGrid h = op::CellGrid::of(d);
  const auto cubes = op::cell_values(d, d.problem.coefficient, "problem.coefficient");
  CHECK(op::cell_face(h, cubes, 0, {0, 1, 1}) == doctest::Approx(harmonic({1, 2, 3, 4})));
  CHECK(op::cell_face(h, cubes, 0, {0, 0, 1}) == doctest::Approx(harmonic({1, 3})));
  CHECK(op::cell_face(h, cubes, 0, {0, 0, 0}) == 1);
  // Equal cells give their value exactly (no rounding of 4 / (4 / b)).
  const Case e = read("grid: {points: [3, 3, 3], extent: [2, 2, 2]}\nstencil: 7\n"
                      "problem: {coefficient: \"x < 1 ? 0.3 : 7\", sampling: cells}\n");
  const auto equal = op::cell_values(e, e.problem.coefficient, "problem.coefficient");
  CHECK(op::cell_face(op::CellGrid::of(e), equal, 1, {0, 0, 1}) == 0.3);
}

TEST_CASE("cell sampling: the medium's fine faces follow the cells, the node field the means") {
  const Case c = read("grid: {points: [5, 3], extent: [4, 2]}\n"
                      "problem: {coefficient: \"x < 2 ? 1 : 9\", sampling: cells}\n"
                      "boundary: {default: {type: neumann}, x_min: {type: dirichlet}}\n");
  const op::Medium m = op::resolve_medium(c);
  REQUIRE(m.by_cells());
  CHECK(m.beta_min == 1);
  CHECK(m.beta_max == 9);
  // Node line x = 2 (node 2) is the interface: the faces on either side take one material.
  CHECK(m.face_beta(0, {1, 1, 0}) == 1);
  CHECK(m.face_beta(0, {2, 1, 0}) == 9);
  CHECK(m.beta_at(m.index(2, 1, 0)) == 5);  // the node's mean of 1, 1, 9, 9
  // The face arrays the sweeps read: node 4's +x face (Neumann at x_max) is the mirror of face 3.
  const auto levels = std::vector<multigrid::LevelGeometry>{multigrid::fine_level(c)};
  const auto cpu = make_cpu_backend<double>();  // host memory: the arrays are read in place
  const auto flux = op::flux_levels<double>(levels, m, *cpu);
  const Layout& L = flux[0].layout;
  CHECK(flux[0].face[0].data()[L.at(1, 1, 0)] == 1);
  CHECK(flux[0].face[0].data()[L.at(2, 1, 0)] == 9);
  CHECK(flux[0].face[0].data()[L.at(4, 1, 0)] == 9);
  CHECK(flux[0].face[1].data()[L.at(2, 0, 0)] == doctest::Approx(harmonic({1, 9})));

  // A coefficient equal at every cell is the constant operator, as under nodes.
  const op::Medium u = op::resolve_medium(
      read("grid: {points: [5, 3]}\nproblem: {coefficient: \"2 + 0*x\", sampling: cells}\n"));
  CHECK_FALSE(u.needs_flux());
  CHECK(u.constant == 2);
}

TEST_CASE("cell sampling: the key round-trips through to_yaml and is written only for cells") {
  const Case c = read("grid: {points: [5, 5]}\nproblem: {coefficient: \"1 + x\", sampling: cells}\n");
  const std::string text = to_yaml(c);
  CHECK(text.find("sampling: cells") != std::string::npos);
  CHECK(read(text).problem == c.problem);
  const Case n = read("grid: {points: [5, 5]}\nproblem: {coefficient: \"1 + x\", sampling: nodes}\n");
  CHECK(to_yaml(n).find("sampling") == std::string::npos);
  CHECK(read(to_yaml(n)).problem.sampling == Sampling::Nodes);
}
