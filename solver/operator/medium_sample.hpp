// How the medium is sampled on the grid: problem.sampling (at the nodes, or at cell centres
// with faces formed from the cells beside them), and `fdsolve check` on a large grid, which
// checks the medium's formulas at sample nodes instead of resolve_medium's every node.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "case.hpp"
#include "layout.hpp"

namespace fdsolve::op {

/// The cells of a grid under problem.sampling: cells. Cell i along an axis lies between nodes i
/// and i + 1: points - 1 cells on an axis that is not periodic, points on a periodic one (the
/// last cell spans the wrap to node 0), 1 along an absent axis. Dense arrays over the cells are
/// C-ordered with x fastest, as node arrays are.
struct CellGrid {
  int dims = 2;
  std::array<index_t, 3> nodes{1, 1, 1};
  std::array<index_t, 3> cells{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};

  static CellGrid of(const Case& c);
  index_t count() const { return cells[0] * cells[1] * cells[2]; }
  index_t index(index_t i, index_t j, index_t k) const { return (k * cells[1] + j) * cells[0] + i; }
};

/// `v` (a coefficient-like field of x, y, z) per cell of c's grid, dense: a number at every
/// cell, an expression at the cell centres (origin + (i + 1/2) h per axis), a dataset read one
/// value per cell (shape cell_dataset_shape_for). Throws InputError naming `key` and the cell
/// where a value is not finite.
std::vector<double> cell_values(const Case& c, const Value& v, const std::string& key);

/// The mean of the cells around each node, dense over the nodes: 2^dims cells inside, only the
/// cells inside at a face that is not periodic (a corner node has one). What a node quantity
/// sampled at cells (a capacity) takes.
std::vector<double> node_means_of_cells(const CellGrid& g, const std::vector<double>& cells);
/// The same written to `nodes` (g's node count) on all threads, rows split as for_rows splits
/// them (host_array.hpp), so that these threads touch an uninitialised array's pages first.
void node_means_of_cells(const CellGrid& g, const double* cells, double* nodes);

/// `v` at every node of c's grid under c.problem.sampling: its value at the node (nodes), or
/// node_means_of_cells of cell_values (cells). The one call a node quantity makes to follow the
/// case's sampling.
std::vector<double> sampled_node_values(const Case& c, const Value& v, const std::string& key);

/// The coefficient of the face between node (i, j, k) and its +a neighbour under sampling:
/// cells: the harmonic mean of the cells beside it (2D: the two cells sharing the edge; 3D: the
/// four around it; at a face of the domain that is not periodic only the cells inside); the
/// value itself where they are equal. node[a] is 0..nodes[a]-2, or nodes[a]-1 on a periodic
/// axis (the face of the wrap).
double cell_face(const CellGrid& g, const std::vector<double>& cells, int a,
                 const std::array<index_t, 3>& node);

/// "cell (i, j) = (3, 4), centre (x, y) = (0.35, 0.45)" for error messages.
std::string at_cell(const Case& c, const std::array<index_t, 3>& cell);

/// Whether `check` may sample the medium of `c`: its coefficient, capacity and held regions are
/// numbers or expressions (no data file) and the grid has more than kSampleEveryNode nodes.
bool medium_can_be_sampled(const Case& c);

/// The coefficient and the capacity (finite and > 0) and the held regions (`where` finite;
/// `value` finite where `where` holds) at the sample nodes of the grid, with resolve_medium's messages. What it
/// cannot see at samples (a region holding every node, or none) is left to the run. Returns
/// the smallest and largest coefficient seen at the samples.
std::array<double, 2> check_medium_sampled(const Case& c);

}  // namespace fdsolve::op
