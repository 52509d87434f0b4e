// Builds the host-side initial and source fields of a case; expressions are evaluated with
// one compiled muparser expression per OpenMP thread (muparser objects are not thread-safe).
#include "problem_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "data_file.hpp"
#include "expression.hpp"
#include "finite_inputs.hpp"
#include "robin_faces.hpp"

namespace fdsolve {
namespace {

/// Writes `value` at time t (scaled by `scale`) on the nodes of `box`, to element at(i, j, k)
/// of `out`: a constant, an expression (each thread compiles its own copy: muparser objects
/// are not thread-safe, and compiling is cheap next to evaluating millions of nodes), or data
/// read from a file (dense over the owned nodes).
template <typename T, typename At>
void fill(const Case& c, const Subdomain& sub, const Value& value, double scale, const Box& box,
          double t, At&& at, T* out) {
  // `box` is in the rank's node indices; coordinates and data files use global ones.
  const auto& off = sub.offset;
  if (value.is_constant()) {
    const T v = static_cast<T>(scale * value.constant);
#pragma omp parallel for collapse(2) schedule(static)
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i) out[at(i, j, k)] = v;
    return;
  }
  if (value.is_file()) {
    const std::vector<double> data = read_dataset_values(value, c.grid);
    const auto& p = c.grid.points;
    const index_t ny = p[1];
    const index_t nx = p[0];
#pragma omp parallel for collapse(2) schedule(static)
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i)
          out[at(i, j, k)] =
              static_cast<T>(scale * data[((k + off[2]) * ny + j + off[1]) * nx + i + off[0]]);
    return;
  }
  // Per-step boundary faces of a small grid are too few nodes to wake the thread team for.
  const bool parallel = box.cells() > 4096;
  const index_t nx = box.extent(0), ny = box.extent(1);
  index_t bad = std::numeric_limits<index_t>::max();  // first non-finite node, C order in box
#pragma omp parallel if (parallel)
  {
    const Expression expr(value.expression);
#pragma omp for collapse(2) schedule(static) reduction(min : bad)
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
          const double v =
              expr(node_coordinate(c, 0, i + off[0]), node_coordinate(c, 1, j + off[1]),
                   c.grid.dims == 3 ? node_coordinate(c, 2, k + off[2]) : 0.0, t);
          if (!std::isfinite(v))
            bad = std::min(bad, ((k - box.lo[2]) * ny + (j - box.lo[1])) * nx + (i - box.lo[0]));
          out[at(i, j, k)] = static_cast<T>(scale * v);
        }
  }
  if (bad != std::numeric_limits<index_t>::max()) {
    // Time-dependent inputs are checked here each time they are evaluated (issue 11); the
    // node is named in global indices.
    const std::array<index_t, 3> node{box.lo[0] + bad % nx + off[0],
                                      box.lo[1] + bad / nx % ny + off[1],
                                      box.lo[2] + bad / (nx * ny) + off[2]};
    const Expression expr(value.expression);
    throw NonFiniteValue(expr(node_coordinate(c, 0, node[0]), node_coordinate(c, 1, node[1]),
                              c.grid.dims == 3 ? node_coordinate(c, 2, node[2]) : 0.0, t),
                         node);
  }
}

/// Writes `value` into a field of layout L on the nodes of `box`.
template <typename T>
void fill(const Case& c, const Subdomain& sub, const Value& value, double scale, const Box& box,
          const Layout& L, std::vector<T>& field, double t = 0.0) {
  fill(
      c, sub, value, scale, box, t, [&](index_t i, index_t j, index_t k) { return L.at(i, j, k); },
      field.data());
}

}  // namespace

double node_coordinate(const Case& c, int axis, index_t i) {
  return c.grid.origin[axis] + static_cast<double>(i) * c.grid.spacing(axis);
}

Box face_box(const Layout& L, int face) {
  Box b = L.owned_box();
  const int axis = face / 2;
  if (face % 2 == 0)
    b.hi[axis] = 1;
  else
    b.lo[axis] = L.n[axis] - 1;
  return b;
}

bool has_source_field(const Case& c) {
  const bool has_source =
      c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat;
  // Robin faces add their ambient term to the right-hand side (robin_faces.hpp).
  return (has_source && !c.problem.source.is_constant()) || has_robin_faces(c);
}

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
  return field_layout(c, value_size, Subdomain::whole(c));
}

Layout field_layout(const Case& c, std::size_t value_size, const Subdomain& sub) {
  return Layout::make(c.grid.dims, sub.n, static_cast<index_t>(128 / value_size));
}

Box update_box(const Case& c) { return update_box(c, Subdomain::whole(c)); }

Box update_box(const Case& c, const Subdomain& sub) {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int a = 0; a < c.grid.dims; ++a) {
    const auto fixed = [&](int face) {
      return sub.physical(face) && c.boundary[face].type == BoundaryType::Dirichlet;
    };
    b.lo[a] = fixed(2 * a) ? 1 : 0;
    b.hi[a] = sub.n[a] - (fixed(2 * a + 1) ? 1 : 0);
  }
  return b;
}

template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& L) {
  return initial_field<T>(c, L, Subdomain::whole(c));
}

template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& L, const Subdomain& sub) {
  std::vector<T> field(static_cast<std::size_t>(L.size), T(0));
  fill(c, sub, c.initial, 1.0, L.owned_box(), L, field);
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Dirichlet && sub.physical(face))
      fill(c, sub, c.boundary[face].value, 1.0, face_box(L, face), L, field);
  return field;
}

template <typename T>
std::vector<T> source_values(const Case& c, const Layout& L, double scale, double t) {
  return source_values<T>(c, L, Subdomain::whole(c), scale, t);
}

template <typename T>
std::vector<T> source_values(const Case& c, const Layout& L, const Subdomain& sub, double scale,
                             double t) {
  std::vector<T> field(static_cast<std::size_t>(L.size), T(0));
  if (c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat)
    fill(c, sub, c.problem.source, scale, L.owned_box(), L, field, t);
  return field;
}

template <typename T>
std::vector<T> box_values(const Case& c, const Value& value, const Box& box, double t) {
  return box_values<T>(c, value, box, t, Subdomain::whole(c));
}

template <typename T>
std::vector<T> box_values(const Case& c, const Value& value, const Box& box, double t,
                          const Subdomain& sub) {
  std::vector<T> dense(static_cast<std::size_t>(box.cells()));
  box_values(c, value, box, t, sub, dense.data());
  return dense;
}

template <typename T>
void box_values(const Case& c, const Value& value, const Box& box, double t, const Subdomain& sub,
                T* out) {
  const index_t nx = box.extent(0), ny = box.extent(1);
  fill(
      c, sub, value, 1.0, box, t,
      [&](index_t i, index_t j, index_t k) {
        return ((k - box.lo[2]) * ny + (j - box.lo[1])) * nx + (i - box.lo[0]);
      },
      out);
}

template <typename T>
void copy_owned(const T* field, const Layout& L, std::vector<T>& dense, bool all_threads) {
  dense.resize(static_cast<std::size_t>(L.owned_cells()));
  const index_t nx = L.n[0], ny = L.n[1];
#pragma omp parallel for collapse(2) schedule(static) if (all_threads)
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < ny; ++j)
      std::copy_n(field + L.at(0, j, k), nx, dense.begin() + (k * ny + j) * nx);
}

template <typename T>
void copy_owned(const std::vector<T>& field, const Layout& L, std::vector<T>& dense) {
  copy_owned(field.data(), L, dense, true);
}

template <typename T>
std::vector<T> owned_dense(const std::vector<T>& field, const Layout& L) {
  std::vector<T> dense;
  copy_owned(field, L, dense);
  return dense;
}

template std::vector<float> initial_field<float>(const Case&, const Layout&, const Subdomain&);
template std::vector<double> initial_field<double>(const Case&, const Layout&, const Subdomain&);
template std::vector<float> source_values<float>(const Case&, const Layout&, const Subdomain&,
                                                 double, double);
template std::vector<double> source_values<double>(const Case&, const Layout&, const Subdomain&,
                                                   double, double);
template std::vector<float> box_values<float>(const Case&, const Value&, const Box&, double,
                                              const Subdomain&);
template std::vector<double> box_values<double>(const Case&, const Value&, const Box&, double,
                                                const Subdomain&);
template void box_values<float>(const Case&, const Value&, const Box&, double, const Subdomain&,
                                float*);
template void box_values<double>(const Case&, const Value&, const Box&, double, const Subdomain&,
                                 double*);
template std::vector<float> initial_field<float>(const Case&, const Layout&);
template std::vector<double> initial_field<double>(const Case&, const Layout&);
template std::vector<float> source_values<float>(const Case&, const Layout&, double, double);
template std::vector<double> source_values<double>(const Case&, const Layout&, double, double);
template std::vector<float> box_values<float>(const Case&, const Value&, const Box&, double);
template std::vector<double> box_values<double>(const Case&, const Value&, const Box&, double);
template void copy_owned<float>(const float*, const Layout&, std::vector<float>&, bool);
template void copy_owned<double>(const double*, const Layout&, std::vector<double>&, bool);
template void copy_owned<float>(const std::vector<float>&, const Layout&, std::vector<float>&);
template void copy_owned<double>(const std::vector<double>&, const Layout&, std::vector<double>&);
template std::vector<float> owned_dense<float>(const std::vector<float>&, const Layout&);
template std::vector<double> owned_dense<double>(const std::vector<double>&, const Layout&);

}  // namespace fdsolve
