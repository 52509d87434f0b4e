// One sweep as CUDA kernel arguments, apart from the statistics machinery so that kernels
// needing nothing else (the temporally blocked ones) can be compiled for the CPU emulation
// test as well (tests/emulated).
#pragma once

#include "point_update.hpp"

namespace fdsolve::cuda {

/// One sweep as kernel arguments: `in`, `out` and `src` already point at owned node (0,0,0),
/// so node (i, j, k) is at k*plane + j*pitch + i (negative for the halo).
template <typename T>
struct DevArgs {
  const T* __restrict__ in;
  T* __restrict__ out;
  const T* __restrict__ src;  // source field or null
  long long pitch, plane;
  long long lo[3], hi[3];  // the update box, half open
  TypedWeights<T> w;
  int points;  // 5, 7, 19 or 27
};

}  // namespace fdsolve::cuda
