// The 19/27-point CPU sweep. Blocks of rows march through z; the in-plane sums of every input
// plane are computed once and serve the three output planes they feed, as in the CUDA
// plane-marching kernel:
//   R_p = center*C + fx*X + fy*Y + edge*D   (what plane p gives output plane p)
//   Q_p = fz*C + edge*(X + Y) + corner*D     (what plane p gives output planes p - 1 and p + 1)
//   u'_k = R_k + Q_{k-1} + Q_{k+1} + s
// with C the node, X and Y its in-plane axis pairs and D its 4 in-plane diagonals.
#include <algorithm>
#include <utility>
#include <vector>

#include "../point_update.hpp"
#include "row_stats.hpp"
#include "stencil_cpu.hpp"
#include "thread_policy.hpp"

namespace fdsolve::cpu {
namespace {

/// Rows per block: enough to amortise re-reading the block's two edge rows, few enough that
/// the block's sums of three planes stay in the core's cache.
constexpr index_t kRowsPerBlock = 16;

/// Q and R of rows [j0, j1) of plane p, x from x0 on, into rows of length nx.
template <typename T>
void plane_sums(const T* in, const Layout& L, index_t x0, index_t nx, index_t j0, index_t j1,
                index_t p, const TypedWeights<T>& w, T* __restrict q, T* __restrict r) {
  const index_t P = L.pitch;
  for (index_t j = j0; j < j1; ++j) {
    const T* __restrict u = in + L.at(x0, j, p);
    T* __restrict qj = q + (j - j0) * nx;
    T* __restrict rj = r + (j - j0) * nx;
#pragma omp simd
    for (index_t x = 0; x < nx; ++x) {
      const T c = u[x];
      const T xs = u[x - 1] + u[x + 1];
      const T ys = u[x - P] + u[x + P];
      const T ds = (u[x - P - 1] + u[x - P + 1]) + (u[x + P - 1] + u[x + P + 1]);
      rj[x] = w.center * c + w.fx * xs + w.fy * ys + w.edge * ds;
      qj[x] = w.fz * c + w.edge * (xs + ys) + w.corner * ds;
    }
  }
}

/// Output row: u' = R_k + Q_{k-1} + Q_{k+1} + s, with its statistics when `Stats`.
template <bool SourceField, bool Stats, typename T>
RowStats combine_row(const T* __restrict in, T* __restrict out, const T* __restrict src,
                     index_t first, index_t nx, const T* __restrict r, const T* __restrict qm,
                     const T* __restrict qp, T source, T source_scale) {
  double sum_sq = 0, sum = 0, max_abs = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  index_t nans = 0;
#pragma omp simd reduction(+ : sum_sq, sum, nans) reduction(max : max_abs, hi) reduction(min : lo)
  for (index_t x = 0; x < nx; ++x) {
    const index_t c = first + x;
    const T v = r[x] + qm[x] + qp[x] + (SourceField ? scaled_source(src[c], source_scale) : source);
    out[c] = v;
    if constexpr (Stats) accumulate(in[c], v, sum_sq, sum, max_abs, lo, hi, nans);
  }
  return RowStats{sum_sq, sum, max_abs, lo, hi, nans};
}

template <bool SourceField, bool Stats, typename T>
void march(const SweepArgs<T>& a, std::vector<SweepStats>& partial) {
  const Box& b = a.box;
  const Layout& L = a.layout;
  const TypedWeights<T> w = typed<T>(a.weights);
  const index_t nx = b.extent(0), ny = b.extent(1);
  const index_t blocks = (ny + kRowsPerBlock - 1) / kRowsPerBlock;
#pragma omp parallel num_threads(team_size(b.cells()))
  {
    // Q and R of three planes (below, at and above the output plane), rotated as z advances.
    std::vector<T> buffer(static_cast<std::size_t>(6 * kRowsPerBlock * nx));
#pragma omp for schedule(static)
    for (index_t blk = 0; blk < blocks; ++blk) {
      const index_t j0 = b.lo[1] + blk * kRowsPerBlock;
      const index_t j1 = std::min(j0 + kRowsPerBlock, b.hi[1]);
      T* q[3];
      T* r[3];
      for (int s = 0; s < 3; ++s) {
        q[s] = buffer.data() + (2 * s) * kRowsPerBlock * nx;
        r[s] = buffer.data() + (2 * s + 1) * kRowsPerBlock * nx;
      }
      plane_sums(a.in, L, b.lo[0], nx, j0, j1, b.lo[2] - 1, w, q[0], r[0]);
      plane_sums(a.in, L, b.lo[0], nx, j0, j1, b.lo[2], w, q[1], r[1]);
      for (index_t k = b.lo[2]; k < b.hi[2]; ++k) {
        plane_sums(a.in, L, b.lo[0], nx, j0, j1, k + 1, w, q[2], r[2]);
        for (index_t j = j0; j < j1; ++j) {
          const index_t o = (j - j0) * nx;
          const RowStats rs =
              combine_row<SourceField, Stats>(a.in, a.out, a.source_field, L.at(b.lo[0], j, k), nx,
                                              r[1] + o, q[0] + o, q[2] + o, w.source,
                                              w.source_scale);
          if constexpr (Stats) partial[(k - b.lo[2]) * ny + (j - b.lo[1])] = rs.stats(nx);
        }
        std::swap(q[0], q[1]);  // below <- at, at <- above, above <- free
        std::swap(r[0], r[1]);
        std::swap(q[1], q[2]);
        std::swap(r[1], r[2]);
      }
    }
  }
}

}  // namespace

template <typename T>
void sweep_3d_march(const SweepArgs<T>& a, SweepStats* stats) {
  if (a.box.empty()) {
    if (stats) *stats = SweepStats{};
    return;
  }
  // One partial per output row, merged in row order: the result is independent of threads.
  std::vector<SweepStats> partial(stats ? a.box.extent(1) * a.box.extent(2) : 0);
  if (a.source_field)
    stats ? march<true, true>(a, partial) : march<true, false>(a, partial);
  else
    stats ? march<false, true>(a, partial) : march<false, false>(a, partial);
  if (stats) {
    SweepStats total;
    for (const SweepStats& p : partial) total.merge(p);
    *stats = total;
  }
}

template void sweep_3d_march<float>(const SweepArgs<float>&, SweepStats*);
template void sweep_3d_march<double>(const SweepArgs<double>&, SweepStats*);

}  // namespace fdsolve::cpu
