// See medium_sample.hpp.
#include "medium_sample.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

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

}  // namespace

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
  std::array<double, 2> range{c.problem.coefficient.constant, c.problem.coefficient.constant};
  if (!c.problem.coefficient.is_constant()) {
    const auto e = compiled(c.problem.coefficient);
    range = {std::numeric_limits<double>::infinity(), 0.0};
    for (const auto& n : nodes) {
      const double b = at(c, c.problem.coefficient, e.get(), n);
      if (!std::isfinite(b) || !(b > 0))
        throw InputError(c.where(key) +
                         fmt::format("{}: evaluates to {} {}; a coefficient must be finite and > 0",
                                     key, b, at_node(c, n)));
      range = {std::min(range[0], b), std::max(range[1], b)};
    }
  }
  if (c.problem.equation == Equation::Heat && !c.problem.capacity.is_constant()) {
    // The capacity at the same samples, with resolve_medium's message.
    const auto e = compiled(c.problem.capacity);
    for (const auto& n : nodes) {
      const double v = at(c, c.problem.capacity, e.get(), n);
      if (!std::isfinite(v) || !(v > 0))
        throw InputError(c.where("problem.capacity") +
                         fmt::format("problem.capacity: evaluates to {} {}; a capacity must be "
                                     "finite and > 0",
                                     v, at_node(c, n)));
    }
  }
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
