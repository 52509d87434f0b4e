// The arguments of the Galerkin product (galerkin_product.hpp) and the index and weight rules
// its row sums read: images across mirrored faces, wrapped storage on periodic axes, and the
// prolongation's parents and weights of a fine index along one axis.
#pragma once

#include <array>

#include "flux_operator.hpp"
#include "grid_strides.hpp"
#include "layout.hpp"

namespace fdsolve {

template <typename T>
struct GalerkinProductArgs {
  FluxOperator<T> op;  // the fine level's operator; its rows are (A u)_i, the update unused
  Layout fine, coarse;
  Box box;  // the coarse rows formed (the coarse level's unknowns)
  std::array<bool, 3> halves{false, false, false};  // per axis: coarse halves it, else keeps it
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};       // per axis: 0 none, 1 mirror, 2 wrap
  /// Per halving axis a: each node's weight of its lower coarse parent along a, on the grid
  /// `weight_layout[a]` (see the top of this file); null on a kept axis.
  const T* weight[3] = {nullptr, nullptr, nullptr};
  std::array<Layout, 3> weight_layout;
  T* stencil = nullptr;                              // 3^dims arrays of `coarse`, `stride` apart
  index_t stride = 0;
};

/// GalerkinProductArgs as plain scalars for device code.
template <typename T>
struct GalerkinProductPlain {
  FluxPlain<T> a;
  GridStrides fs, cs;
  int dims;
  index_t n[3], nc[3];  // fine and coarse nodes per axis
  bool halves[3];
  int lo[3], hi[3];
  const T* weight[3];
  GridStrides ws[3];
  T* stencil;
  index_t stride;
  T scale;  // R's factor: 1/2 per halving axis
};

template <typename T>
GalerkinProductPlain<T> galerkin_product_plain(const GalerkinProductArgs<T>& g) {
  GalerkinProductPlain<T> p{};
  p.a = flux_plain(g.op, g.fine);
  p.fs = strides_of(g.fine);
  p.cs = strides_of(g.coarse);
  p.dims = g.fine.dims;
  double scale = 1.0;
  for (int a = 0; a < 3; ++a) {
    p.n[a] = g.fine.n[a];
    p.nc[a] = g.coarse.n[a];
    p.halves[a] = a < p.dims && g.halves[a];
    p.lo[a] = g.lo[a];
    p.hi[a] = g.hi[a];
    p.weight[a] = g.weight[a];
    p.ws[a] = strides_of(g.weight_layout[a]);
    if (p.halves[a]) scale *= 0.5;
  }
  p.stencil = g.stencil;
  p.stride = g.stride;
  p.scale = T(scale);
  return p;
}

namespace galerkin_detail {

/// Fine index i along axis a at its image across a mirrored face (unchanged on other axes).
template <typename T>
FDSOLVE_HOST_DEVICE index_t image(const GalerkinProductPlain<T>& p, int a, index_t i) {
  if (i < 0 && p.lo[a] == 1) return -i;
  if (i > p.n[a] - 1 && p.hi[a] == 1) return 2 * (p.n[a] - 1) - i;
  return i;
}

/// The same for coarse index i.
template <typename T>
FDSOLVE_HOST_DEVICE index_t coarse_image(const GalerkinProductPlain<T>& p, int a, index_t i) {
  if (i < 0 && p.lo[a] == 1) return -i;
  if (i > p.nc[a] - 1 && p.hi[a] == 1) return 2 * (p.nc[a] - 1) - i;
  return i;
}

/// Index i along an axis of n nodes where arrays hold it: wrapped where `wraps` (periodic).
FDSOLVE_HOST_DEVICE index_t stored_index(index_t i, index_t n, bool wraps) {
  return wraps ? ((i % n) + n) % n : i;
}

template <typename T>
FDSOLVE_HOST_DEVICE index_t fine_at(const GalerkinProductPlain<T>& p, index_t i, index_t j,
                                    index_t k) {
  return p.fs.at(stored_index(i, p.n[0], p.lo[0] == 2), stored_index(j, p.n[1], p.lo[1] == 2),
                 stored_index(k, p.n[2], p.lo[2] == 2));
}

/// Axis a's weight grid element of index 0 along a, the other axes at `t` (unfolded): axis a
/// and the halving axes before it are fine on that grid, those after it coarse.
template <typename T>
FDSOLVE_HOST_DEVICE index_t weight_base(const GalerkinProductPlain<T>& p, int a,
                                        const index_t t[3]) {
  if (!p.halves[a]) return 0;  // no weights
  index_t at[3];
  for (int b = 0; b < 3; ++b) {
    const bool fine = b <= a || !p.halves[b];
    at[b] = b == a ? 0 : stored_index(t[b], fine ? p.n[b] : p.nc[b], p.lo[b] == 2);
  }
  return p.ws[a].at(at[0], at[1], at[2]);
}

/// The coarse parents of fine index g along axis a and their prolongation weights (one or two);
/// `base` weight_base of the other axes' position. Returns the count.
template <typename T>
FDSOLVE_HOST_DEVICE int parents(const GalerkinProductPlain<T>& p, int a, index_t base, index_t g,
                                index_t c[2], T w[2]) {
  if (!p.halves[a]) {
    c[0] = g;
    w[0] = T(1);
    return 1;
  }
  if ((g & 1) == 0) {
    c[0] = g >> 1;
    w[0] = T(1);
    return 1;
  }
  const index_t step = a == 0 ? 1 : a == 1 ? p.ws[a].pitch : p.ws[a].plane;
  const T lower = p.weight[a][base + stored_index(g, p.n[a], p.lo[a] == 2) * step];
  c[0] = (g - 1) >> 1;
  c[1] = c[0] + 1;
  w[0] = lower;
  w[1] = T(1) - lower;
  return 2;
}

/// The weight by which P takes coarse index C to fine index g along axis a (0 if none); a
/// mirrored ghost g reads its image's weight of C's image, as the restriction's folded faces do.
template <typename T>
FDSOLVE_HOST_DEVICE T weight_of(const GalerkinProductPlain<T>& p, int a, index_t g, index_t C,
                                const index_t t[3]) {
  const index_t gi = image(p, a, g);
  if (gi != g) C = coarse_image(p, a, C);
  index_t c[2];
  T w[2];
  const int count = parents(p, a, weight_base(p, a, t), gi, c, w);
  for (int m = 0; m < count; ++m)
    if (c[m] == C) return w[m];
  return T(0);
}

}  // namespace galerkin_detail
}  // namespace fdsolve
