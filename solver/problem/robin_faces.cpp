// See robin_faces.hpp.
#include "robin_faces.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <optional>

#include "expression.hpp"
#include "finite_inputs.hpp"
#include "problem_setup.hpp"

namespace fdsolve {

bool has_robin_faces(const Case& c) {
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Robin) return true;
  return false;
}

bool robin_ambient_uses_time(const Case& c) {
  for (int face = 0; face < 2 * c.grid.dims; ++face)
    if (c.boundary[face].type == BoundaryType::Robin && c.boundary[face].ambient.uses_time)
      return true;
  return false;
}

template <typename T>
std::vector<T> robin_source_values(const Case& c, const Layout& L, const Subdomain& sub,
                                   double scale, double t) {
  std::vector<T> out(static_cast<std::size_t>(L.size), T(0));
  const int dims = c.grid.dims;
  const auto on_dirichlet = [&](const std::array<index_t, 3>& g) {
    for (int b = 0; b < dims; ++b) {
      if (g[b] == 0 && c.boundary[2 * b].type == BoundaryType::Dirichlet) return true;
      if (g[b] == c.grid.points[b] - 1 && c.boundary[2 * b + 1].type == BoundaryType::Dirichlet)
        return true;
    }
    return false;
  };
  for (int face = 0; face < 2 * dims; ++face) {
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type != BoundaryType::Robin || !sub.physical(face)) continue;
    const int axis = face / 2;
    const double factor = scale * 2.0 * bc.h / c.grid.spacing(axis);
    std::optional<Expression> ambient;
    if (bc.ambient.is_expression()) ambient.emplace(bc.ambient.expression);
    index_t lo[3] = {0, 0, 0}, hi[3] = {sub.n[0], sub.n[1], sub.n[2]};
    lo[axis] = face % 2 == 0 ? 0 : sub.n[axis] - 1;
    hi[axis] = lo[axis] + 1;
    for (index_t k = lo[2]; k < hi[2]; ++k)
      for (index_t j = lo[1]; j < hi[1]; ++j)
        for (index_t i = lo[0]; i < hi[0]; ++i) {
          const std::array<index_t, 3> g{sub.to_global(0, i), sub.to_global(1, j),
                                         sub.to_global(2, k)};
          if (on_dirichlet(g)) continue;
          double a = bc.ambient.constant;
          if (ambient) {
            double x[3] = {0, 0, 0};
            for (int b = 0; b < dims; ++b) x[b] = node_coordinate(c, b, g[b]);
            a = (*ambient)(x[0], x[1], x[2], t);
            if (!std::isfinite(a))
              throw NonFiniteInput(describe_nonfinite(c, face_key(c, face, "ambient"), a, g, false) +
                                   fmt::format(" at t = {}", t));
          }
          T& v = out[static_cast<std::size_t>(L.at(i, j, k))];
          v = static_cast<T>(static_cast<double>(v) + factor * a);
        }
  }
  return out;
}

template <typename T>
void add_robin_source(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub,
                      double scale, double t, Buffer<T>& out) {
  if (!has_robin_faces(c)) return;
  const std::vector<T> values = robin_source_values<T>(c, L, sub, scale, t);
  Buffer<T> terms = backend.allocate(L.size);
  backend.upload(terms, values.data(), L.size);
  LinearCombinationArgs<T> add;  // out += terms
  add.y = out.data();
  add.x = terms.data();
  add.layout = L;
  add.box = L.owned_box();
  require_flux_operations(backend).combine(add);
  backend.synchronize();  // `terms` is freed on return
}

#define FDSOLVE_ROBIN_FACES(T)                                                                \
  template std::vector<T> robin_source_values<T>(const Case&, const Layout&, const Subdomain&, \
                                                 double, double);                             \
  template void add_robin_source<T>(const Case&, Backend<T>&, const Layout&, const Subdomain&, \
                                    double, double, Buffer<T>&);
FDSOLVE_ROBIN_FACES(float)
FDSOLVE_ROBIN_FACES(double)
#undef FDSOLVE_ROBIN_FACES

}  // namespace fdsolve
