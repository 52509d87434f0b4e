// The shared-node differences on the CPU (see node_difference.hpp): one OpenMP task per row.
#include <cmath>

#include "stencil_cpu.hpp"

namespace fdsolve::cpu {

template <typename T>
NodeDifference shared_node_difference(const SharedNodesArgs<T>& a) {
  const Box& b = a.coarse_box;
  const index_t ey = b.extent(1), rows = ey * b.extent(2);
  std::vector<double> sum_sq(static_cast<std::size_t>(rows)), max(sum_sq.size());
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < rows; ++r) {
    const index_t J = b.lo[1] + r % ey, K = b.lo[2] + r / ey;
    double s = 0, m = 0;
    for (index_t I = b.lo[0]; I < b.hi[0]; ++I) {
      const index_t st = a.stride;
      const double d = static_cast<double>(a.fine[a.fine_layout.at(st * I, st * J, st * K)]) -
                       static_cast<double>(a.coarse[a.coarse_layout.at(I, J, K)]);
      s += d * d;
      m = std::isnan(d) || std::isnan(m) ? NAN : std::max(m, std::abs(d));
    }
    sum_sq[static_cast<std::size_t>(r)] = s;
    max[static_cast<std::size_t>(r)] = m;
  }
  return merge_rows(sum_sq, max, b.extent(0));
}

template NodeDifference shared_node_difference<float>(const SharedNodesArgs<float>&);
template NodeDifference shared_node_difference<double>(const SharedNodesArgs<double>&);

}  // namespace fdsolve::cpu
