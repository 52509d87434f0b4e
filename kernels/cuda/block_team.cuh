// A thread block as the team of the bottom solve's conjugate gradients (bottom_cg.hpp): the
// first `Size` threads split the unknowns and add their partial sums in a fixed-order tree in
// shared memory, so every run adds in the same order. A larger block (the bottom levels'
// kernel, bottom_levels.cu) runs the same solve: its other threads stand by in the loops (their
// rank lies past every node) but reach each barrier, and the sums come out in the order of the
// solve's own Size-thread launch (bottom_cg.cu).
#pragma once

#include <climits>

namespace fdsolve::cuda {

/// The bottom solve's team (bottom_cg.cu's block): 256 threads cover the coarsest grids of a
/// few dozen to a few thousand nodes.
constexpr int kBottomCgThreads = 256;

template <int Size>
struct BlockTeam {
  double* scratch;  // Size values of shared memory

  __device__ int rank() const {
    return static_cast<int>(threadIdx.x) < Size ? static_cast<int>(threadIdx.x) : INT_MAX;
  }
  __device__ int size() const { return Size; }
  __device__ void sync() const { __syncthreads(); }
  __device__ double sum(double v) const {
    const int t = static_cast<int>(threadIdx.x);
    if (t < Size) scratch[t] = v;
    __syncthreads();
    for (int half = Size / 2; half > 0; half /= 2) {
      if (t < half) scratch[t] += scratch[t + half];
      __syncthreads();
    }
    const double total = scratch[0];
    __syncthreads();  // every thread has read the total before the scratch is reused
    return total;
  }
};

}  // namespace fdsolve::cuda
