// OpenMP sweeps over the rows of the update box; each row is a vectorisable loop in x.
#include "stencil_cpu.hpp"

#include <vector>

#include "../point_update.hpp"

namespace fdsolve::cpu {
namespace {

/// Updates row (j, k) of the box and, when `stats` is not null, accumulates its statistics.
template <int Points, typename T>
void sweep_row(const SweepArgs<T>& a, const TypedWeights<T>& w, index_t j, index_t k,
               SweepStats* stats) {
  const Layout& L = a.layout;
  const index_t first = L.at(a.box.lo[0], j, k);
  const index_t last = first + a.box.extent(0);
  const T* in = a.in;
  T* out = a.out;
  const T* src = a.source_field;
  SweepStats row;
  for (index_t c = first; c < last; ++c) {
    const T s = src ? src[c] : w.source;
    T v;
    if constexpr (Points == 5)
      v = update_5pt(in, c, L.pitch, w, s);
    else
      v = update_3d<Points>(in, c, L.pitch, L.plane, w, s);
    out[c] = v;
    if (stats) row.add(static_cast<double>(in[c]), static_cast<double>(v));
  }
  if (stats) *stats = row;
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
#pragma omp parallel for schedule(static)
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
  if (args.layout.dims == 2) return sweep_box<5>(args, stats);
  switch (args.weights.points) {
    case 7:
      return sweep_box<7>(args, stats);
    case 19:
      return sweep_box<19>(args, stats);
    default:
      return sweep_box<27>(args, stats);
  }
}

template <typename T>
void copy(T* dst, const T* src, index_t n) {
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) dst[i] = src[i];
}

template void sweep<float>(const SweepArgs<float>&, SweepStats*);
template void sweep<double>(const SweepArgs<double>&, SweepStats*);
template void copy<float>(float*, const float*, index_t);
template void copy<double>(double*, const double*, index_t);

}  // namespace fdsolve::cpu
