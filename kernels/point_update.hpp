// Per-node stencil arithmetic shared by the CPU and CUDA backends, so both compute the same
// formula from one definition.
#pragma once

#include "stencil.hpp"

#if defined(__CUDACC__)
#define FDSOLVE_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define FDSOLVE_HOST_DEVICE inline
#endif

namespace fdsolve {

/// The stencil weights converted once to the working precision.
template <typename T>
struct TypedWeights {
  T center, fx, fy, fz, edge, corner, source;
};

template <typename T>
TypedWeights<T> typed(const StencilWeights& w) {
  return {T(w.center), T(w.face[0]), T(w.face[1]), T(w.face[2]),
          T(w.edge),   T(w.corner),  T(w.source)};
}

/// 2D 5-point update of the node at element `c` of `u`.
template <typename T>
FDSOLVE_HOST_DEVICE T update_5pt(const T* u, index_t c, index_t pitch, const TypedWeights<T>& w,
                                 T s) {
  return w.center * u[c] + w.fx * (u[c - 1] + u[c + 1]) + w.fy * (u[c - pitch] + u[c + pitch]) + s;
}

/// Sum of the 4 in-plane diagonal neighbours of element `c` (edges in-plane, corners off-plane).
template <typename T>
FDSOLVE_HOST_DEVICE T diagonal_sum(const T* u, index_t c, index_t pitch) {
  return (u[c - pitch - 1] + u[c - pitch + 1]) + (u[c + pitch - 1] + u[c + pitch + 1]);
}

/// 3D update of the node at element `c`; `Points` is 7, 19 or 27 and drops the terms whose
/// weight is zero by definition.
template <int Points, typename T>
FDSOLVE_HOST_DEVICE T update_3d(const T* u, index_t c, index_t pitch, index_t plane,
                                const TypedWeights<T>& w, T s) {
  T r = w.center * u[c] + w.fx * (u[c - 1] + u[c + 1]) + w.fy * (u[c - pitch] + u[c + pitch]) +
        w.fz * (u[c - plane] + u[c + plane]);
  if constexpr (Points >= 19) {
    const T edges = diagonal_sum(u, c, pitch) + (u[c - plane - 1] + u[c - plane + 1]) +
                    (u[c - plane - pitch] + u[c - plane + pitch]) +
                    (u[c + plane - 1] + u[c + plane + 1]) +
                    (u[c + plane - pitch] + u[c + plane + pitch]);
    r += w.edge * edges;
  }
  if constexpr (Points == 27) {
    r += w.corner * (diagonal_sum(u, c - plane, pitch) + diagonal_sum(u, c + plane, pitch));
  }
  return r + s;
}

}  // namespace fdsolve
