// See medium_sample.hpp.
#include "medium_sample.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "data_file.hpp"

#include "case_reader.hpp"
#include "expression.hpp"
#include "medium.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::op {
namespace {

std::string at_node(const Case& c, const std::array<index_t, 3>& node) {
  const auto x = [&](int a) { return node_coordinate(c, a, node[a]); };
  if (c.grid.dims == 2)
    return fmt::format("at node (i, j) = ({}, {}), (x, y) = ({}, {})", node[0], node[1], x(0),
                       x(1));
  return fmt::format("at node (i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})", node[0], node[1],
                     node[2], x(0), x(1), x(2));
}

/// The value of `v` (a number or an expression) at `node`.
double at(const Case& c, const Value& v, const Expression* e, const std::array<index_t, 3>& n) {
  if (!e) return v.constant;
  return (*e)(node_coordinate(c, 0, n[0]), node_coordinate(c, 1, n[1]),
              c.grid.dims == 3 ? node_coordinate(c, 2, n[2]) : 0.0, 0.0);
}

std::unique_ptr<Expression> compiled(const Value& v) {
  return v.is_constant() ? nullptr : std::make_unique<Expression>(v.expression);
}

/// Whether node n lies on a Dirichlet face (which holds it, as in resolve_medium).
bool on_dirichlet_face(const Case& c, const std::array<index_t, 3>& n) {
  for (int a = 0; a < c.grid.dims; ++a)
    if ((n[a] == 0 && c.boundary[2 * a].type == BoundaryType::Dirichlet) ||
        (n[a] == c.grid.points[a] - 1 && c.boundary[2 * a + 1].type == BoundaryType::Dirichlet))
      return true;
  return false;
}

double cell_centre(const Case& c, int axis, index_t i) {
  return c.grid.origin[axis] + (static_cast<double>(i) + 0.5) * c.grid.spacing(axis);
}

}  // namespace

CellGrid CellGrid::of(const Case& c) {
  CellGrid g;
  g.dims = c.grid.dims;
  for (int a = 0; a < c.grid.dims; ++a) {
    g.nodes[a] = c.grid.points[a];
    g.periodic[a] = c.grid.periodic[a];
    g.cells[a] = c.grid.periodic[a] ? g.nodes[a] : std::max<index_t>(g.nodes[a] - 1, 1);
  }
  return g;
}

std::string at_cell(const Case& c, const std::array<index_t, 3>& n) {
  const auto x = [&](int a) { return cell_centre(c, a, n[a]); };
  if (c.grid.dims == 2)
    return fmt::format("at cell (i, j) = ({}, {}), centre (x, y) = ({}, {})", n[0], n[1], x(0),
                       x(1));
  return fmt::format("at cell (i, j, k) = ({}, {}, {}), centre (x, y, z) = ({}, {}, {})", n[0],
                     n[1], n[2], x(0), x(1), x(2));
}

std::vector<double> cell_values(const Case& c, const Value& v, const std::string& key) {
  const CellGrid g = CellGrid::of(c);
  const index_t count = g.count();
  const auto cell_of = [&](index_t linear) {
    return std::array<index_t, 3>{linear % g.cells[0], linear / g.cells[0] % g.cells[1],
                                  linear / (g.cells[0] * g.cells[1])};
  };
  std::vector<double> out;
  if (v.is_constant()) {
    out.assign(static_cast<std::size_t>(count), v.constant);
  } else if (v.is_file()) {
    try {
      out = read_cell_dataset_values(v, c.grid);
    } catch (const InputError& e) {
      throw InputError(c.where(key) + key + ": " + e.what());
    }
  } else {
    out.resize(static_cast<std::size_t>(count));
    try {
#pragma omp parallel if (count > 4096)
      {
        const Expression e(v.expression);
#pragma omp for schedule(static)
        for (index_t q = 0; q < count; ++q) {
          const auto n = cell_of(q);
          out[static_cast<std::size_t>(q)] =
              e(cell_centre(c, 0, n[0]), cell_centre(c, 1, n[1]),
                c.grid.dims == 3 ? cell_centre(c, 2, n[2]) : 0.0, 0.0);
        }
      }
    } catch (const std::exception& e) {
      throw InputError(c.where(key) + key + ": " + e.what());
    }
  }
  // The first cell (C order) that is not finite, found on all threads.
  index_t bad = count;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (index_t q = 0; q < count; ++q)
    if (!std::isfinite(out[static_cast<std::size_t>(q)])) bad = std::min(bad, q);
  if (bad < count)
    throw InputError(c.where(key) + fmt::format("{}: {} {} {}; it must be finite", key,
                                                v.is_file() ? "holds" : "evaluates to",
                                                out[static_cast<std::size_t>(bad)],
                                                at_cell(c, cell_of(bad))));
  return out;
}

std::vector<double> node_means_of_cells(const CellGrid& g, const std::vector<double>& cells) {
  std::vector<double> out(static_cast<std::size_t>(g.nodes[0] * g.nodes[1] * g.nodes[2]));
  node_means_of_cells(g, cells.data(), out.data());
  return out;
}

void node_means_of_cells(const CellGrid& g, const double* cells, double* out) {
  // The cells around node i along an axis: i - 1 and i, those that exist (wrapped on a
  // periodic axis).
  const auto around = [&](int a, index_t i, index_t* at) {
    if (a >= g.dims) {
      at[0] = 0;
      return 1;
    }
    int m = 0;
    for (index_t q : {i - 1, i}) {
      if (g.periodic[a]) {
        at[m++] = (q + g.cells[a]) % g.cells[a];
      } else if (q >= 0 && q < g.cells[a]) {
        at[m++] = q;
      }
    }
    return m;
  };
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = 0; k < g.nodes[2]; ++k)
    for (index_t j = 0; j < g.nodes[1]; ++j)
      for (index_t i = 0; i < g.nodes[0]; ++i) {
        index_t ci[2], cj[2], ck[2];
        const int ni = around(0, i, ci), nj = around(1, j, cj), nk = around(2, k, ck);
        double sum = 0;
        for (int z = 0; z < nk; ++z)
          for (int y = 0; y < nj; ++y)
            for (int x = 0; x < ni; ++x) sum += cells[g.index(ci[x], cj[y], ck[z])];
        out[(k * g.nodes[1] + j) * g.nodes[0] + i] = sum / static_cast<double>(ni * nj * nk);
      }
}

std::vector<double> sampled_node_values(const Case& c, const Value& v, const std::string& key) {
  if (c.problem.sampling == Sampling::Cells)
    return node_means_of_cells(CellGrid::of(c), cell_values(c, v, key));
  const Box all{{0, 0, 0},
                {c.grid.points[0], c.grid.points[1], c.grid.dims == 3 ? c.grid.points[2] : 1}};
  try {
    return box_values<double>(c, v, all, 0.0);
  } catch (const InputError&) {
    throw;
  } catch (const NonFiniteValue& e) {
    throw InputError(c.where(key) + fmt::format("{}: evaluates to {} {}; it must be finite", key,
                                                e.value, at_node(c, e.node)));
  } catch (const std::exception& e) {
    throw InputError(c.where(key) + key + ": " + e.what());
  }
}

double cell_face(const CellGrid& g, const std::vector<double>& cells, int a,
                 const std::array<index_t, 3>& node) {
  // Along a the face's own cell; across it the cells on both sides of the node's line.
  index_t at[3][2];
  int count[3];
  for (int b = 0; b < 3; ++b) {
    if (b == a) {
      at[b][0] = g.periodic[b] ? node[b] % g.cells[b] : node[b];
      count[b] = 1;
      continue;
    }
    if (b >= g.dims) {
      at[b][0] = 0;
      count[b] = 1;
      continue;
    }
    count[b] = 0;
    for (index_t q : {node[b] - 1, node[b]}) {
      if (g.periodic[b]) {
        at[b][count[b]++] = (q + g.cells[b]) % g.cells[b];
      } else if (q >= 0 && q < g.cells[b]) {
        at[b][count[b]++] = q;
      }
    }
  }
  const double first = cells[g.index(at[0][0], at[1][0], at[2][0])];
  bool equal = true;
  double inverse = 0;
  int n = 0;
  for (int z = 0; z < count[2]; ++z)
    for (int y = 0; y < count[1]; ++y)
      for (int x = 0; x < count[0]; ++x) {
        const double v = cells[g.index(at[0][x], at[1][y], at[2][z])];
        equal = equal && v == first;
        inverse += 1.0 / v;
        ++n;
      }
  // Equal cells give their value exactly, so a uniform region's faces are its coefficient.
  return equal ? first : static_cast<double>(n) / inverse;
}

bool medium_can_be_sampled(const Case& c) {
  index_t cells = 1;
  for (int a = 0; a < c.grid.dims; ++a) cells *= c.grid.points[a];
  bool files = c.problem.coefficient.is_file() || c.problem.capacity.is_file();
  for (const FixedRegion& r : c.problem.fixed)
    files = files || r.where.is_file() || r.value.is_file();
  return !files && cells > kSampleEveryNode;
}

std::array<double, 2> check_medium_sampled(const Case& c) {
  const Box all{{0, 0, 0},
                {c.grid.points[0], c.grid.points[1], c.grid.dims == 3 ? c.grid.points[2] : 1}};
  const auto nodes = sample_nodes(all);
  const std::string key = coefficient_key(c);
  // A field sampled at the nodes, or with cells at the cell above each sample node (the last
  // cell below the last node): its range, and resolve_medium's message where a value is not
  // finite or not > 0.
  const bool by_cells = c.problem.sampling == Sampling::Cells;
  const CellGrid g = CellGrid::of(c);
  const auto sampled_range = [&](const Value& v, const std::string& name, const char* noun) {
    const auto e = compiled(v);
    std::array<double, 2> r{std::numeric_limits<double>::infinity(), 0.0};
    for (const auto& node : nodes) {
      std::array<index_t, 3> n = node;
      if (by_cells)
        for (int a = 0; a < c.grid.dims; ++a) n[a] = std::min(n[a], g.cells[a] - 1);
      const double b =
          by_cells ? (*e)(cell_centre(c, 0, n[0]), cell_centre(c, 1, n[1]),
                          c.grid.dims == 3 ? cell_centre(c, 2, n[2]) : 0.0, 0.0)
                   : at(c, v, e.get(), n);
      if (!std::isfinite(b) || !(b > 0))
        throw InputError(c.where(name) +
                         fmt::format("{}: evaluates to {} {}; a {} must be finite and > 0", name,
                                     b, by_cells ? at_cell(c, n) : at_node(c, n), noun));
      r = {std::min(r[0], b), std::max(r[1], b)};
    }
    return r;
  };
  std::array<double, 2> range{c.problem.coefficient.constant, c.problem.coefficient.constant};
  if (!c.problem.coefficient.is_constant())
    range = sampled_range(c.problem.coefficient, key, "coefficient");
  if (c.problem.equation == Equation::Heat && !c.problem.capacity.is_constant())
    sampled_range(c.problem.capacity, "problem.capacity", "capacity");
  for (std::size_t r = 0; r < c.problem.fixed.size(); ++r) {
    const FixedRegion& region = c.problem.fixed[r];
    const std::string name = fmt::format("problem.fixed[{}]", r);
    const auto where = compiled(region.where), value = compiled(region.value);
    for (const auto& n : nodes) {
      const double w = at(c, region.where, where.get(), n);
      if (w == 0.0) continue;
      if (!std::isfinite(w))
        throw InputError(c.where(name + ".where") +
                         fmt::format("{}.where: is {} {}", name, w, at_node(c, n)));
      if (on_dirichlet_face(c, n)) continue;
      const double v = at(c, region.value, value.get(), n);
      if (!std::isfinite(v))
        throw InputError(c.where(name + ".value") +
                         fmt::format("{}.value: is {} {}", name, v, at_node(c, n)));
    }
  }
  return range;
}

}  // namespace fdsolve::op
