// Multigrid's coarse correction as a kernel reads it node by node: what prolong_add adds,
// computed where a smoothing pass reads u (march2d_kernel.cuh's Correction), so that the
// corrected field is never written on its own.
#pragma once

#include <cuda_runtime.h>

#include "grid_strides.hpp"
#include "transfer.hpp"

namespace fdsolve::cuda {

/// The bilinear interpolation of `coarse` (strides `strides`, nested halving, halo filled) at
/// fine box node (x, y): transfer.hpp's prolong_node, the formula prolong_add uses.
template <typename T>
struct CoarseCorrection {
  static constexpr bool kAdds = true;
  const T* coarse = nullptr;
  GridStrides strides;
  __device__ T at(long long x, long long y) const { return prolong_node(coarse, strides, x, y, 0); }
};

}  // namespace fdsolve::cuda
