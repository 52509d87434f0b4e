// Device-side view of one sweep and the per-block statistics shared by every CUDA stencil
// kernel: the arguments as plain values, the partial stats, and their fixed-order reduction.
#pragma once

#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

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

/// One block's share of SweepStats (count is known on the host: the box's cells).
struct StatsPartial {
  double sum_sq, max_abs, min, max, sum;
};

__host__ __device__ inline StatsPartial stats_identity() {
  return {0.0, 0.0, __builtin_huge_val(), -__builtin_huge_val(), 0.0};
}

/// Combines two partials exactly as SweepStats::merge does: NaN in max_abs propagates.
struct StatsCombine {
  __device__ StatsPartial operator()(const StatsPartial& a, const StatsPartial& b) const {
    StatsPartial r;
    r.sum_sq = a.sum_sq + b.sum_sq;
    r.max_abs = (b.max_abs > a.max_abs || isnan(b.max_abs)) ? b.max_abs : a.max_abs;
    r.min = fmin(a.min, b.min);
    r.max = fmax(a.max, b.max);
    r.sum = a.sum + b.sum;
    return r;
  }
};

/// Adds one update to a thread's partial, as SweepStats::add does.
template <typename T>
__device__ __forceinline__ void stats_add(StatsPartial& p, T prev, T next) {
  const double d = static_cast<double>(next) - static_cast<double>(prev);
  p.sum_sq += d * d;
  const double ad = fabs(d);
  if (ad > p.max_abs || isnan(ad)) p.max_abs = ad;
  p.min = fmin(p.min, static_cast<double>(next));
  p.max = fmax(p.max, static_cast<double>(next));
  p.sum += static_cast<double>(next);
}

/// Reduces the threads' partials of a BX x BY block in CUB's fixed tree order and has thread 0
/// store the result at `partials[block]`. Every thread of the block must call it.
template <int BX, int BY>
__device__ __forceinline__ void block_stats_store(const StatsPartial& mine, StatsPartial* partials,
                                                  long long block) {
  using Reduce = cub::BlockReduce<StatsPartial, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY>;
  __shared__ typename Reduce::TempStorage temp;
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const StatsPartial total = Reduce(temp).Reduce(mine, StatsCombine{});
  if (tid == 0) partials[block] = total;
}

/// The block's linear index, also its slot in the partials array.
__device__ __forceinline__ long long block_index() {
  return blockIdx.x + static_cast<long long>(gridDim.x) *
                          (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
}

}  // namespace fdsolve::cuda
