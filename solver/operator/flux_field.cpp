// See flux_field.hpp.
#include "flux_field.hpp"

#include <array>

#include "problem/problem_setup.hpp"

namespace fdsolve::op {

std::vector<double> flux_field(const Case& c, const Medium& m, const double* u, double t) {
  const int dims = c.grid.dims;
  const std::array<index_t, 3> n{c.grid.points[0], c.grid.points[1],
                                 dims == 3 ? c.grid.points[2] : 1};
  const index_t nodes = n[0] * n[1] * n[2];
  std::vector<double> out(static_cast<std::size_t>(nodes * dims), 0.0);
  const auto at = [&](index_t i, index_t j, index_t k) { return (k * n[1] + j) * n[0] + i; };

  // The prescribed normal derivative on each Neumann face's nodes, at t.
  std::array<std::vector<double>, 6> gradient;
  std::array<Box, 6> face_boxes;
  for (int face = 0; face < 2 * dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type != BoundaryType::Neumann) continue;
    const int a = face / 2;
    Box box{{0, 0, 0}, {n[0], n[1], n[2]}};
    box.lo[a] = face % 2 == 0 ? 0 : n[a] - 1;
    box.hi[a] = box.lo[a] + 1;
    face_boxes[face] = box;
    gradient[face] = box_values<double>(c, bc.gradient, box, t);
  }
  const auto gradient_at = [&](int face, index_t i, index_t j, index_t k) {
    const Box& b = face_boxes[face];
    const index_t nx = b.extent(0), ny = b.extent(1);
    return gradient[face][static_cast<std::size_t>(((k - b.lo[2]) * ny + (j - b.lo[1])) * nx +
                                                   (i - b.lo[0]))];
  };

#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) {
        const std::array<index_t, 3> node{i, j, k};
        const index_t self = at(i, j, k);
        for (int a = 0; a < dims; ++a) {
          const double h = c.grid.spacing(a);
          // The flux of the face between `lower` and its +a neighbour.
          const auto face_flux = [&](std::array<index_t, 3> lower) {
            std::array<index_t, 3> upper = lower;
            upper[a] = (upper[a] + 1) % n[a];
            return -m.face_beta(a, lower) *
                   (u[at(upper[0], upper[1], upper[2])] - u[at(lower[0], lower[1], lower[2])]) / h;
          };
          std::array<index_t, 3> below = node;
          below[a] = node[a] - 1;
          double value;
          if (c.grid.periodic[a]) {
            below[a] = (node[a] + n[a] - 1) % n[a];
            value = 0.5 * (face_flux(below) + face_flux(node));
          } else if (node[a] == 0 || node[a] == n[a] - 1) {
            const int face = 2 * a + (node[a] == 0 ? 0 : 1);
            // The interior face beside the boundary node.
            std::array<index_t, 3> inner = node;
            inner[a] = node[a] == 0 ? 0 : n[a] - 2;
            if (c.boundary[face].type == BoundaryType::Neumann) {
              // The mirror: u_ghost - u_inner = 2 h g along the outward normal, the ghost face's
              // coefficient that of the mirrored interior face.
              const double g = gradient_at(face, i, j, k);
              value = (face % 2 == 0 ? 1.0 : -1.0) * m.face_beta(a, inner) * g;
            } else {
              value = face_flux(inner);
            }
          } else {
            value = 0.5 * (face_flux(below) + face_flux(node));
          }
          out[static_cast<std::size_t>(self * dims + a)] = value;
        }
      }
  return out;
}

template <typename T>
std::vector<T> flux_field_as(const Case& c, const Medium& m, const std::vector<T>& u, double t) {
  std::vector<double> wide(u.begin(), u.end());
  const std::vector<double> flux = flux_field(c, m, wide.data(), t);
  return std::vector<T>(flux.begin(), flux.end());
}

template std::vector<float> flux_field_as<float>(const Case&, const Medium&,
                                                 const std::vector<float>&, double);
template std::vector<double> flux_field_as<double>(const Case&, const Medium&,
                                                   const std::vector<double>&, double);

}  // namespace fdsolve::op
