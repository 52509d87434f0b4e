// 16-byte vector loads and stores of VEC consecutive values (float4 / double2), the access
// width the register-marching kernels use so that each thread keeps many bytes in flight.
#pragma once

#include <cuda_runtime.h>

namespace fdsolve::cuda {

template <typename T>
struct Vec16;
template <>
struct Vec16<float> {
  using type = float4;
  static constexpr int n = 4;
};
template <>
struct Vec16<double> {
  using type = double2;
  static constexpr int n = 2;
};

/// Loads VEC values at `p` (16-byte aligned) into `v` through the read-only path.
template <typename T>
__device__ __forceinline__ void load_vec(const T* p, T (&v)[Vec16<T>::n]) {
  using V = typename Vec16<T>::type;
  const V x = __ldg(reinterpret_cast<const V*>(p));
  if constexpr (Vec16<T>::n == 4) {
    v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
  } else {
    v[0] = x.x, v[1] = x.y;
  }
}

/// Stores the values of `v` whose flag in `mask` (bit e for element e) is set: one 16-byte
/// store when all are, single stores at the edges of the box.
template <typename T>
__device__ __forceinline__ void store_vec(T* p, const T (&v)[Vec16<T>::n], unsigned mask) {
  constexpr int N = Vec16<T>::n;
  using V = typename Vec16<T>::type;
  if (mask == (1u << N) - 1) {
    V x;
    if constexpr (N == 4)
      x = make_float4(v[0], v[1], v[2], v[3]);
    else
      x = make_double2(v[0], v[1]);
    *reinterpret_cast<V*>(p) = x;
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (mask & (1u << e)) p[e] = v[e];
  }
}

/// Reads the N values at `s` (16-byte aligned shared memory) with one vector access and their
/// left and right neighbours: r = s[-1 .. N].
template <typename T>
__device__ __forceinline__ void shared_row(const T* s, T (&r)[Vec16<T>::n + 2]) {
  constexpr int N = Vec16<T>::n;
  using V = typename Vec16<T>::type;
  const V v = *reinterpret_cast<const V*>(s);
  r[0] = s[-1];
  if constexpr (N == 4) {
    r[1] = v.x, r[2] = v.y, r[3] = v.z, r[4] = v.w;
  } else {
    r[1] = v.x, r[2] = v.y;
  }
  r[N + 1] = s[N];
}

/// Bit e set when x + e lies in [lo, hi).
template <int N>
__device__ __forceinline__ unsigned lane_mask(long long x, long long lo, long long hi) {
  unsigned m = 0;
#pragma unroll
  for (int e = 0; e < N; ++e)
    if (x + e >= lo && x + e < hi) m |= 1u << e;
  return m;
}

}  // namespace fdsolve::cuda
