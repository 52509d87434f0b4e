// Multigrid's grid transfers on the host (OpenMP over the rows of the destination box).
#include <algorithm>
#include <vector>

#include "stencil_cpu.hpp"

namespace fdsolve::cpu {
namespace {

// Coarse multigrid levels are a few hundred nodes: waking the thread team costs more than
// the transfer itself.
constexpr index_t kParallelCells = 16384;

/// One axis's transfer weights for the nodes of box `b` along `axis` (one default entry for
/// the z axis of a 2D grid).
template <typename Entry, typename Make>
std::vector<Entry> axis_table(const Box& b, int axis, int dims, Make make) {
  if (axis >= dims) return {Entry{}};
  std::vector<Entry> table;
  table.reserve(static_cast<std::size_t>(b.extent(axis)));
  for (index_t i = b.lo[axis]; i < b.hi[axis]; ++i) table.push_back(make(i));
  return table;
}

}  // namespace

template <typename T>
void restrict_to_coarse(const TransferArgs<T>& a) {
  const Box& b = a.box;
  const index_t ny = b.extent(1), rows = ny * b.extent(2);
  const T scale = static_cast<T>(a.scale);
  const GridStrides F = strides_of(a.fine);
  if (!a.ratio.halves(a.fine.dims)) {
    // Grids that do not nest: each axis's weights once per call, not once per node.
    const auto x = axis_table<RestrictAxis<T>>(b, 0, a.fine.dims, [&](index_t I) {
      return restrict_axis<T>(I, a.ratio.num[0], a.ratio.den[0]);
    });
    const auto y = axis_table<RestrictAxis<T>>(b, 1, a.fine.dims, [&](index_t J) {
      return restrict_axis<T>(J, a.ratio.num[1], a.ratio.den[1]);
    });
    const auto z = axis_table<RestrictAxis<T>>(b, 2, a.fine.dims, [&](index_t K) {
      return restrict_axis<T>(K, a.ratio.num[2], a.ratio.den[2]);
    });
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
    for (index_t r = 0; r < rows; ++r) {
      const index_t j = r % ny, k = r / ny;
      for (index_t i = 0; i < b.extent(0); ++i)
        a.to[a.coarse.at(b.lo[0] + i, b.lo[1] + j, b.lo[2] + k)] =
            restrict_ratio_sum(a.from, F, x[i], y[j], z[k], scale);
    }
    return;
  }
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
  for (index_t r = 0; r < rows; ++r) {
    const index_t J = b.lo[1] + r % ny, K = b.lo[2] + r / ny;
    for (index_t I = b.lo[0]; I < b.hi[0]; ++I)
      a.to[a.coarse.at(I, J, K)] = restrict_node(a.from, F, I, J, K, scale);
  }
}

template <typename T>
void prolong_add(const TransferArgs<T>& a) {
  const Box& b = a.box;
  const index_t ny = b.extent(1), rows = ny * b.extent(2);
  const GridStrides C = strides_of(a.coarse);
  if (!a.ratio.halves(a.fine.dims)) {
    const auto x = axis_table<ProlongAxis<T>>(b, 0, a.fine.dims, [&](index_t i) {
      return prolong_axis<T>(i, a.ratio.num[0], a.ratio.den[0]);
    });
    const auto y = axis_table<ProlongAxis<T>>(b, 1, a.fine.dims, [&](index_t j) {
      return prolong_axis<T>(j, a.ratio.num[1], a.ratio.den[1]);
    });
    const auto z = axis_table<ProlongAxis<T>>(b, 2, a.fine.dims, [&](index_t k) {
      return prolong_axis<T>(k, a.ratio.num[2], a.ratio.den[2]);
    });
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
    for (index_t r = 0; r < rows; ++r) {
      const index_t j = r % ny, k = r / ny;
      for (index_t i = 0; i < b.extent(0); ++i)
        a.to[a.fine.at(b.lo[0] + i, b.lo[1] + j, b.lo[2] + k)] +=
            prolong_ratio_sum(a.from, C, x[i], y[j], z[k]);
    }
    return;
  }
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
  for (index_t r = 0; r < rows; ++r) {
    const index_t j = b.lo[1] + r % ny, k = b.lo[2] + r / ny;
    for (index_t i = b.lo[0]; i < b.hi[0]; ++i)
      a.to[a.fine.at(i, j, k)] += prolong_node(a.from, C, i, j, k);
  }
}

namespace {

template <int Points, typename T>
void restrict_residual_points(const ResidualRestrictArgs<T>& a) {
  const Box& b = a.box;
  const index_t ny = b.extent(1), rows = ny * b.extent(2);
  const T scale = static_cast<T>(a.scale), g0 = static_cast<T>(a.g_constant);
  const FineFold F = fine_fold(a.fine, a.rules);
  const TypedWeights<T> w = typed<T>(a.residual);
  const GridStrides C = strides_of(a.coarse);
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
  for (index_t r = 0; r < rows; ++r) {
    const index_t J = b.lo[1] + r % ny, K = b.lo[2] + r / ny;
    for (index_t I = b.lo[0]; I < b.hi[0]; ++I)
      a.to[C.at(I, J, K)] = restrict_residual_node<Points>(a.u, a.g, g0, F, w, I, J, K, scale);
  }
}

}  // namespace

template <typename T>
void restrict_residual(const ResidualRestrictArgs<T>& a) {
  if (a.box.empty()) return;
  if (a.fine.dims == 2) return restrict_residual_points<5>(a);
  switch (a.residual.points) {
    case 7:
      return restrict_residual_points<7>(a);
    case 19:
      return restrict_residual_points<19>(a);
    default:
      return restrict_residual_points<27>(a);
  }
}

template <typename T>
void prolong_cubic_add(const TransferArgs<T>& a) {
  const Box& b = a.box;
  const index_t ny = b.extent(1), rows = ny * b.extent(2);
  const CoarseFold C = coarse_fold(a.coarse, a.rules);
#pragma omp parallel for schedule(static) if (b.cells() > kParallelCells)
  for (index_t r = 0; r < rows; ++r) {
    const index_t j = b.lo[1] + r % ny, k = b.lo[2] + r / ny;
    for (index_t i = b.lo[0]; i < b.hi[0]; ++i)
      a.to[a.fine.at(i, j, k)] += prolong_cubic_node(a.from, C, i, j, k);
  }
}

template <typename T>
void fill_value(T* dst, index_t n, T value) {
#pragma omp parallel for schedule(static) if (n > kParallelCells)
  for (index_t i = 0; i < n; ++i) dst[i] = value;
}

template void restrict_to_coarse<float>(const TransferArgs<float>&);
template void restrict_to_coarse<double>(const TransferArgs<double>&);
template void prolong_add<float>(const TransferArgs<float>&);
template void prolong_add<double>(const TransferArgs<double>&);
template void prolong_cubic_add<float>(const TransferArgs<float>&);
template void prolong_cubic_add<double>(const TransferArgs<double>&);
template void restrict_residual<float>(const ResidualRestrictArgs<float>&);
template void restrict_residual<double>(const ResidualRestrictArgs<double>&);
template void fill_value<float>(float*, index_t, float);
template void fill_value<double>(double*, index_t, double);

}  // namespace fdsolve::cpu
