// Builds the host-side initial and source fields of a case; expressions are evaluated with
// one compiled muparser expression per OpenMP thread (muparser objects are not thread-safe).
#include "problem_setup.hpp"

#include <algorithm>

#include "expression.hpp"

namespace fdsolve {
namespace {

/// Calls fn(i, j, k, x, y, z) for the owned nodes of `box`.
template <typename Fn>
void for_nodes(const Case& c, const Box& box, Fn&& fn) {
  const auto& g = c.grid;
  const double hx = g.spacing(0), hy = g.spacing(1), hz = g.dims == 3 ? g.spacing(2) : 0.0;
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i)
        fn(i, j, k, g.origin[0] + i * hx, g.origin[1] + j * hy, g.origin[2] + k * hz);
}

/// Writes `value` (scaled by `scale`) into `field` on the nodes of `box`.
template <typename T>
void fill(const Case& c, const Value& value, double scale, const Box& box, const Layout& L,
          std::vector<T>& field) {
  if (value.is_constant()) {
    const T v = static_cast<T>(scale * value.constant);
    for_nodes(c, box, [&](index_t i, index_t j, index_t k, double, double, double) {
      field[L.at(i, j, k)] = v;
    });
    return;
  }
  // Each thread compiles its own copy: cheap next to evaluating millions of nodes.
  const auto& g = c.grid;
  const double hx = g.spacing(0), hy = g.spacing(1), hz = g.dims == 3 ? g.spacing(2) : 0.0;
#pragma omp parallel
  {
    const Expression expr(value.expression);
#pragma omp for collapse(2) schedule(static)
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i)
          field[L.at(i, j, k)] = static_cast<T>(
              scale * expr(g.origin[0] + i * hx, g.origin[1] + j * hy, g.origin[2] + k * hz));
  }
}

/// The owned nodes of one face.
Box face_box(const Layout& L, int face) {
  Box b = L.owned_box();
  const int axis = face / 2;
  if (face % 2 == 0)
    b.hi[axis] = 1;
  else
    b.lo[axis] = L.n[axis] - 1;
  return b;
}

}  // namespace

output::GridMeta grid_meta(const Case& c) {
  output::GridMeta m;
  m.dims = c.grid.dims;
  for (int a = 0; a < 3; ++a) {
    const bool active = a < c.grid.dims;
    m.points[a] = active ? c.grid.points[a] : 1;
    m.origin[a] = active ? c.grid.origin[a] : 0.0;
    m.spacing[a] = active ? c.grid.spacing(a) : 1.0;
  }
  return m;
}

Layout field_layout(const Case& c, std::size_t value_size) {
  const auto& p = c.grid.points;
  return Layout::make(c.grid.dims, {p[0], p[1], c.grid.dims == 3 ? p[2] : 1},
                      static_cast<index_t>(128 / value_size));
}

Box update_box(const Case& c) {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int a = 0; a < c.grid.dims; ++a) {
    const bool min_fixed = c.boundary[2 * a].type == BoundaryType::Dirichlet;
    const bool max_fixed = c.boundary[2 * a + 1].type == BoundaryType::Dirichlet;
    b.lo[a] = min_fixed ? 1 : 0;
    b.hi[a] = c.grid.points[a] - (max_fixed ? 1 : 0);
  }
  return b;
}

template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& L) {
  std::vector<T> field(static_cast<std::size_t>(L.size), T(0));
  fill(c, c.initial, 1.0, L.owned_box(), L, field);
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Dirichlet)
      fill(c, c.boundary[face].value, 1.0, face_box(L, face), L, field);
  return field;
}

template <typename T>
std::vector<T> source_values(const Case& c, const Layout& L, double scale) {
  std::vector<T> field(static_cast<std::size_t>(L.size), T(0));
  if (c.problem.equation == Equation::Poisson)
    fill(c, c.problem.source, scale, L.owned_box(), L, field);
  return field;
}

template <typename T>
std::vector<T> owned_dense(const std::vector<T>& field, const Layout& L) {
  std::vector<T> dense(static_cast<std::size_t>(L.owned_cells()));
  const index_t nx = L.n[0], ny = L.n[1];
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < ny; ++j)
      std::copy_n(field.begin() + L.at(0, j, k), nx, dense.begin() + (k * ny + j) * nx);
  return dense;
}

template std::vector<float> initial_field<float>(const Case&, const Layout&);
template std::vector<double> initial_field<double>(const Case&, const Layout&);
template std::vector<float> source_values<float>(const Case&, const Layout&, double);
template std::vector<double> source_values<double>(const Case&, const Layout&, double);
template std::vector<float> owned_dense<float>(const std::vector<float>&, const Layout&);
template std::vector<double> owned_dense<double>(const std::vector<double>&, const Layout&);

}  // namespace fdsolve
