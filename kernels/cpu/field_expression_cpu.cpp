// Host evaluation of a formula over a box: all threads, one evaluator each (muparser objects
// are not thread-safe), and the non-finite check in the same pass.
#include <algorithm>
#include <cmath>
#include <limits>

#include "field_expression.hpp"

namespace fdsolve {

template <typename T>
NonFiniteNode evaluate_field_host(const FieldProgram& p, const FieldEvalArgs& a, T* out,
                                  bool dense) {
  const Box& b = a.box;
  const index_t nx = b.extent(0), ny = b.extent(1), nz = b.extent(2);
  const index_t rows = ny * nz;
  index_t bad = std::numeric_limits<index_t>::max();  // smallest linear index in the box
  if (b.empty()) return {};
  if (p.is_constant) {  // a finite number: a fill, the same value as evaluating it per node
    const T value = static_cast<T>(a.scale * p.constant);
#pragma omp parallel for schedule(static) if (b.cells() > 4096)
    for (index_t r = 0; r < rows; ++r) {
      const index_t j = b.lo[1] + r % ny, k = b.lo[2] + r / ny;
      std::fill_n(dense ? out + r * nx : out + a.layout.at(b.lo[0], j, k), nx, value);
    }
    return {};
  }
  // A boundary face of a small grid is too few nodes to wake the team for.
#pragma omp parallel if (b.cells() > 4096)
  {
    const std::unique_ptr<PointFunction> f = p.host();
#pragma omp for schedule(static) reduction(min : bad)
    for (index_t r = 0; r < rows; ++r) {
      const index_t j = b.lo[1] + r % ny, k = b.lo[2] + r / ny;
      const double y = field_coordinate(a, 1, j), z = field_coordinate(a, 2, k);
      T* row = dense ? out + r * nx : out + a.layout.at(b.lo[0], j, k);
      for (index_t i = 0; i < nx; ++i) {
        const double v = (*f)(field_coordinate(a, 0, b.lo[0] + i), y, z, a.t);
        if (!std::isfinite(v)) bad = std::min(bad, r * nx + i);
        row[i] = static_cast<T>(a.scale * v);
      }
    }
  }
  if (bad == std::numeric_limits<index_t>::max()) return {};
  NonFiniteNode n;
  n.found = true;
  n.node = {b.lo[0] + bad % nx, b.lo[1] + bad / nx % ny, b.lo[2] + bad / (nx * ny)};
  n.value = (*p.host())(field_coordinate(a, 0, n.node[0]), field_coordinate(a, 1, n.node[1]),
                        field_coordinate(a, 2, n.node[2]), a.t);
  return n;
}

template NonFiniteNode evaluate_field_host<float>(const FieldProgram&, const FieldEvalArgs&, float*,
                                                  bool);
template NonFiniteNode evaluate_field_host<double>(const FieldProgram&, const FieldEvalArgs&,
                                                   double*, bool);

}  // namespace fdsolve
