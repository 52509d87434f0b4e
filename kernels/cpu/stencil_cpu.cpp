// OpenMP sweeps over the rows of the update box; each row is a vectorisable loop in x.
#include "stencil_cpu.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "../point_update.hpp"
#include "row_stats.hpp"
#include "thread_policy.hpp"

namespace fdsolve::cpu {
namespace {

/// Updates `count` nodes of one row starting at element `first`, accumulating the statistics
/// when `Stats`. The pointers do not alias (Jacobi reads one buffer and writes the other),
/// which lets the loop vectorise.
template <int Points, bool SourceField, bool Stats, typename T>
RowStats update_row(const T* __restrict in, T* __restrict out, const T* __restrict src,
                    index_t first, index_t count, index_t pitch, index_t plane,
                    const TypedWeights<T> w) {
  double sum_sq = 0, sum = 0, max_abs = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  index_t nans = 0;
#pragma omp simd reduction(+ : sum_sq, sum, nans) reduction(max : max_abs, hi) reduction(min : lo)
  for (index_t c = first; c < first + count; ++c) {
    const T s = SourceField ? scaled_source(src[c], w.source_scale) : w.source;
    T v;
    if constexpr (Points == 5)
      v = update_5pt(in, c, pitch, w, s);
    else
      v = update_3d<Points>(in, c, pitch, plane, w, s);
    out[c] = v;
    if constexpr (Stats) accumulate(in[c], v, sum_sq, sum, max_abs, lo, hi, nans);
  }
  return RowStats{sum_sq, sum, max_abs, lo, hi, nans};
}

/// Updates row (j, k) of the box and, when `stats` is not null, accumulates its statistics.
template <int Points, typename T>
void sweep_row(const SweepArgs<T>& a, const TypedWeights<T>& w, index_t j, index_t k,
               SweepStats* stats) {
  const Layout& L = a.layout;
  const index_t first = L.at(a.box.lo[0], j, k);
  const index_t count = a.box.extent(0);
  const auto row = [&]<bool SourceField, bool Stats>() {
    return update_row<Points, SourceField, Stats>(a.in, a.out, a.source_field, first, count,
                                                  L.pitch, L.plane, w);
  };
  if (!stats) {
    a.source_field ? row.template operator()<true, false>()
                   : row.template operator()<false, false>();
    return;
  }
  const RowStats acc = a.source_field ? row.template operator()<true, true>()
                                      : row.template operator()<false, true>();
  *stats = acc.stats(count);
}

template <int Points, typename T>
void sweep_box(const SweepArgs<T>& a, SweepStats* stats) {
  const TypedWeights<T> w = typed<T>(a.weights);
  const index_t ny = a.box.extent(1);
  const index_t rows = ny * a.box.extent(2);
  if (a.box.empty()) {
    if (stats) *stats = SweepStats{};
    return;
  }
  std::vector<SweepStats> partial(stats ? rows : 0);
#pragma omp parallel for schedule(static) num_threads(team_size(a.box.cells()))
  for (index_t r = 0; r < rows; ++r) {
    const index_t j = a.box.lo[1] + r % ny;
    const index_t k = a.box.lo[2] + r / ny;
    sweep_row<Points>(a, w, j, k, stats ? &partial[r] : nullptr);
  }
  if (stats) {
    SweepStats total;
    for (const SweepStats& p : partial) total.merge(p);
    *stats = total;
  }
}

}  // namespace

template <typename T>
void sweep(const SweepArgs<T>& args, SweepStats* stats) {
  if (args.flux.active()) return flux_sweep(args, stats);
  if (args.layout.dims == 2) return sweep_box<5>(args, stats);
  if (args.weights.points == 7) return sweep_box<7>(args, stats);
  sweep_3d_march(args, stats);  // 19 and 27 points: plane sums shared between output planes
}

template <typename T>
void copy(T* dst, const T* src, index_t n) {
#pragma omp parallel for schedule(static) num_threads(team_size(n))
  for (index_t i = 0; i < n; ++i) dst[i] = src[i];
}

template void sweep<float>(const SweepArgs<float>&, SweepStats*);
template void sweep<double>(const SweepArgs<double>&, SweepStats*);
template void copy<float>(float*, const float*, index_t);
template void copy<double>(double*, const double*, index_t);

}  // namespace fdsolve::cpu
