// See finite_inputs.hpp.
#include "finite_inputs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <limits>

#include "case_reader.hpp"
#include "data_file.hpp"
#include "expression.hpp"
#include "problem_setup.hpp"

namespace fdsolve {
namespace {

/// The first node of `box` in C order (x fastest) where `value` at t = 0 is not finite, with
/// that value; node[0] < 0 when there is none. Expressions are evaluated in parallel, one
/// compiled copy per thread (muparser objects are not thread-safe), keeping the smallest bad
/// linear index so the answer does not depend on the thread count.
std::pair<std::array<index_t, 3>, double> first_nonfinite(const Case& c, const Value& value,
                                                          const Box& box, Coverage coverage) {
  const index_t nx = box.extent(0), ny = box.extent(1), nz = box.extent(2);
  const auto node = [&](index_t linear) {
    return std::array<index_t, 3>{box.lo[0] + linear % nx, box.lo[1] + (linear / nx) % ny,
                                  box.lo[2] + linear / (nx * ny)};
  };
  const std::pair<std::array<index_t, 3>, double> none{{-1, -1, -1}, 0.0};
  if (box.empty()) return none;
  if (value.is_constant())
    return std::isfinite(value.constant) ? none : std::make_pair(node(0), value.constant);
  if (value.is_file()) {
    const std::vector<double> data = read_dataset_values(value, c.grid);  // dense, owned nodes
    const index_t gx = c.grid.points[0], gy = c.grid.points[1];
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
          const double v = data[static_cast<std::size_t>((k * gy + j) * gx + i)];
          if (!std::isfinite(v)) return {{i, j, k}, v};
        }
    return none;
  }
  if (coverage == Coverage::Sampled && box.cells() > kSampleEveryNode) {
    const Expression expr(value.expression);
    for (const auto& at : sample_nodes(box)) {  // in C order: the first found is the first
      const double v = expr(node_coordinate(c, 0, at[0]), node_coordinate(c, 1, at[1]),
                            c.grid.dims == 3 ? node_coordinate(c, 2, at[2]) : 0.0, 0.0);
      if (!std::isfinite(v)) return {at, v};
    }
    return none;
  }
  index_t first = std::numeric_limits<index_t>::max();
  const index_t rows = ny * nz;
#pragma omp parallel if (box.cells() > 4096)
  {
    const Expression expr(value.expression);
#pragma omp for schedule(static) reduction(min : first)
    for (index_t r = 0; r < rows; ++r) {
      const index_t j = box.lo[1] + r % ny, k = box.lo[2] + r / ny;
      const double y = node_coordinate(c, 1, j);
      const double z = c.grid.dims == 3 ? node_coordinate(c, 2, k) : 0.0;
      for (index_t i = 0; i < nx && r * nx + i < first; ++i)
        if (!std::isfinite(expr(node_coordinate(c, 0, box.lo[0] + i), y, z, 0.0))) {
          first = std::min(first, r * nx + i);
          break;
        }
    }
  }
  if (first == std::numeric_limits<index_t>::max()) return none;
  const auto at = node(first);
  const Expression expr(value.expression);
  const double v = expr(node_coordinate(c, 0, at[0]), node_coordinate(c, 1, at[1]),
                        c.grid.dims == 3 ? node_coordinate(c, 2, at[2]) : 0.0, 0.0);
  return {at, v};
}

void check(const Case& c, const std::string& key, const Value& value, const Box& box,
           Coverage coverage) {
  const auto [at, v] = first_nonfinite(c, value, box, coverage);
  if (at[0] >= 0)
    throw InputError(c.where(key) + describe_nonfinite(c, key, v, at, value.is_file()));
}

}  // namespace

std::string describe_nonfinite(const Case& c, const std::string& key, double value,
                               const std::array<index_t, 3>& node, bool from_file) {
  const char* what = std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}: {} {} at node ", key, from_file ? "holds" : "evaluates to",
                                 what);
  const auto x = [&](int a) { return node_coordinate(c, a, node[a]); };
  if (c.grid.dims == 2)
    return text + fmt::format("(i, j) = ({}, {}), (x, y) = ({}, {})", node[0], node[1], x(0), x(1));
  return text + fmt::format("(i, j, k) = ({}, {}, {}), (x, y, z) = ({}, {}, {})", node[0],
                            node[1], node[2], x(0), x(1), x(2));
}

std::string face_key(const Case& c, int face, const char* what) {
  const std::string own = std::string("boundary.") + kFaceNames[face] + "." + what;
  const std::string fallback = std::string("boundary.default.") + what;
  return c.locations.count(own) || !c.locations.count(fallback) ? own : fallback;
}

std::vector<std::array<index_t, 3>> sample_nodes(const Box& box) {
  std::vector<std::array<index_t, 3>> nodes;
  if (box.empty()) return nodes;
  int axes = 0;
  for (int a = 0; a < 3; ++a) axes += box.extent(a) > 1;
  // About 4096 nodes: 64 per axis in 2D, 16 in 3D.
  const index_t per_axis = box.cells() <= kSampleEveryNode ? index_t{1} << 16
                           : axes <= 1                     ? 4096
                           : axes == 2                     ? 64
                                                           : 16;
  std::array<std::vector<index_t>, 3> at;
  for (int a = 0; a < 3; ++a) {
    const index_t n = box.extent(a);
    const index_t m = std::min(n, per_axis);
    for (index_t q = 0; q < m; ++q)
      at[a].push_back(box.lo[a] + (m == 1 ? 0 : (q * (n - 1) + (m - 1) / 2) / (m - 1)));
    at[a].push_back(box.lo[a] + (n - 1) / 2);  // the middle: face centres and the centre
    std::sort(at[a].begin(), at[a].end());
    at[a].erase(std::unique(at[a].begin(), at[a].end()), at[a].end());
  }
  for (index_t k : at[2])
    for (index_t j : at[1])
      for (index_t i : at[0]) nodes.push_back({i, j, k});
  return nodes;
}

std::vector<CheckedInput> checked_inputs(const Case& c) {
  const Layout L = field_layout(c, sizeof(double));
  std::vector<CheckedInput> all{{"initial", &c.initial, L.owned_box()}};
  if (c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat)
    all.push_back({"problem.source", &c.problem.source, L.owned_box()});
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type == BoundaryType::Dirichlet)
      all.push_back({face_key(c, face, "value"), &bc.value, face_box(L, face)});
    else if (bc.type == BoundaryType::Neumann)
      all.push_back({face_key(c, face, "gradient"), &bc.gradient, face_box(L, face)});
    else if (bc.type == BoundaryType::Robin)
      all.push_back({face_key(c, face, "ambient"), &bc.ambient, face_box(L, face)});
  }
  return all;
}

void check_finite(const Case& c, const CheckedInput& input, Coverage coverage) {
  check(c, input.key, *input.value, input.box, coverage);
}

void check_finite_inputs(const Case& c, Coverage coverage) {
  for (const CheckedInput& input : checked_inputs(c)) check_finite(c, input, coverage);
}

}  // namespace fdsolve
