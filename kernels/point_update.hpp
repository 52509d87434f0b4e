// Per-node stencil arithmetic shared by the CPU and CUDA backends, so both compute the same
// formula from one definition.
#pragma once

#include "host_device.hpp"
#include "stencil.hpp"

namespace fdsolve {

/// The stencil weights converted once to the working precision.
template <typename T>
struct TypedWeights {
  T center, fx, fy, fz, edge, corner, source, source_scale;
};

template <typename T>
TypedWeights<T> typed(const StencilWeights& w) {
  return {T(w.center), T(w.face[0]), T(w.face[1]), T(w.face[2]),
          T(w.edge),   T(w.corner),  T(w.source), T(w.source_scale)};
}

/// A source field's value times a sweep's factor (StencilWeights::source_scale), as the CPU's
/// sweeps take it. A factor of 1, every sweep's but Chebyshev steps', leaves the value as it is
/// rather than multiplying it, so that the update's sum rounds as it did without factors (the
/// product moved a fused multiply-add in the CPU's vectorised loops: a float run's error
/// shifted). The CUDA kernels multiply: the select cost their float variants up to 7 %
/// (performance.md, "Smoothers"), and their results are compared within rounding.
template <typename T>
FDSOLVE_HOST_DEVICE T scaled_source(T value, T scale) {
  return scale == T(1) ? value : scale * value;
}

/// 2D 5-point update from the node's value and its four neighbours: the one formula every
/// sweep (CPU, each CUDA variant, the temporally blocked kernels) evaluates, in this order, so
/// that kernels reading their operands from different places compute the same bits.
template <typename T>
FDSOLVE_HOST_DEVICE T combine_5pt(T c, T xm, T xp, T ym, T yp, const TypedWeights<T>& w, T s) {
  return w.center * c + w.fx * (xm + xp) + w.fy * (ym + yp) + s;
}

/// 2D 5-point update of the node at element `c` of `u`.
template <typename T>
FDSOLVE_HOST_DEVICE T update_5pt(const T* u, index_t c, index_t pitch, const TypedWeights<T>& w,
                                 T s) {
  return combine_5pt(u[c], u[c - 1], u[c + 1], u[c - pitch], u[c + pitch], w, s);
}

/// 3D update from an accessor: at(dx, dy, dz) is the value of the neighbour at that offset
/// (each in -1..1). `Points` is 7, 19 or 27 and drops the terms whose weight is zero by
/// definition. update_3d reads a buffer through it; the temporally blocked kernels read
/// registers and shared memory, with the same operation order and so the same bits.
template <int Points, typename T, typename At>
FDSOLVE_HOST_DEVICE T stencil_3d(const At& at, const TypedWeights<T>& w, T s) {
  T r = w.center * at(0, 0, 0) + w.fx * (at(-1, 0, 0) + at(1, 0, 0)) +
        w.fy * (at(0, -1, 0) + at(0, 1, 0)) + w.fz * (at(0, 0, -1) + at(0, 0, 1));
  if constexpr (Points >= 19) {
    const T edges = ((at(-1, -1, 0) + at(1, -1, 0)) + (at(-1, 1, 0) + at(1, 1, 0))) +
                    (at(-1, 0, -1) + at(1, 0, -1)) + (at(0, -1, -1) + at(0, 1, -1)) +
                    (at(-1, 0, 1) + at(1, 0, 1)) + (at(0, -1, 1) + at(0, 1, 1));
    r += w.edge * edges;
  }
  if constexpr (Points == 27) {
    r += w.corner * (((at(-1, -1, -1) + at(1, -1, -1)) + (at(-1, 1, -1) + at(1, 1, -1))) +
                     ((at(-1, -1, 1) + at(1, -1, 1)) + (at(-1, 1, 1) + at(1, 1, 1))));
  }
  return r + s;
}

/// 3D update of the node at element `c`; `Points` is 7, 19 or 27.
template <int Points, typename T>
FDSOLVE_HOST_DEVICE T update_3d(const T* u, index_t c, index_t pitch, index_t plane,
                                const TypedWeights<T>& w, T s) {
  const auto at = [u, c, pitch, plane](int dx, int dy, int dz) {
    return u[c + dz * plane + dy * pitch + dx];
  };
  return stencil_3d<Points>(at, w, s);
}

}  // namespace fdsolve
