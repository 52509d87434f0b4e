// Device-side view of one sweep and the per-block statistics shared by every CUDA stencil
// kernel: the arguments as plain values, the partial stats, and their fixed-order reduction.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cub/block/block_reduce.cuh>

#include "dev_args.cuh"
#include "point_update.hpp"

namespace fdsolve::cuda {

/// The block's linear index, also its slot in the partials array.
__device__ __forceinline__ unsigned block_index_of() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/// Which lanes of a thread's N-vector at node x (lanes in the box set in `mask`) are the source
/// of an x-face ghost (SweepArgs::x_ghosts): bits 0-3 the x_min ghost's lane, bits 4-7 the
/// x_max ghost's, 0xF for none; 0xFF when the thread writes no ghost. Computed once per
/// thread, so that the march carries one register for it.
template <typename T, int N>
__device__ __forceinline__ unsigned x_ghost_lanes(const XGhosts<T>& g, long long x, unsigned mask) {
  unsigned lanes = 0xFFu;
  if (!g.any) return lanes;
#pragma unroll
  for (int side = 0; side < 2; ++side) {
    if (g.rule[side] == GhostRule::None) continue;
    // ghost_source (ghost_rule.hpp) spelled out: see there.
    const bool wrap = g.rule[side] == GhostRule::Wrap;
    const long long from = wrap ? (side == 0 ? g.nx - 1 : 0) : (side == 0 ? 1 : g.nx - 2);
    const long long e = from - x;
    if (e >= 0 && e < N && ((mask >> e) & 1u))
      lanes = (lanes & ~(0xFu << (4 * side))) | (static_cast<unsigned>(e) << (4 * side));
  }
  return lanes;
}

/// Writes the x-face ghosts sourced from this thread's new values `v` at node (x, y, z), `node`
/// pointing at out's node x, `lanes` from x_ghost_lanes. The value and its operands are the
/// halo fill's (fill_ghost: the source node + offset, + 0 for a wrap), so the ghosts are
/// bit-identical to the fill's.
template <typename T, int N>
__device__ __forceinline__ void write_x_ghosts(const XGhosts<T>& g, unsigned lanes, T* node,
                                               const T (&v)[N], long long y, long long z) {
#pragma unroll
  for (int side = 0; side < 2; ++side) {
    const unsigned e = (lanes >> (4 * side)) & 0xFu;
    if (e == 0xFu) continue;
    const bool wrap = g.rule[side] == GhostRule::Wrap;
    const long long from = wrap ? (side == 0 ? g.nx - 1 : 0) : (side == 0 ? 1 : g.nx - 2);
    T add = T(0);
    if (!wrap)
      add = g.offsets[side] ? g.offsets[side][(z + g.q_halo) * g.face_pitch + (y + 1)]
                            : g.offset[side];
    T value = v[0];
#pragma unroll
    for (int i = 1; i < N; ++i)
      if (i == static_cast<int>(e)) value = v[i];
    // node is x = from - e; the ghost is at -1 or nx.
    node[(side == 0 ? -1 : g.nx) - from + static_cast<long long>(e)] = value + add;
  }
}

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

/// A thread's running stats: the sums in double; max|d|, min and max of u' in T. min and max
/// are exact in T (u' is a T). For float, d = u' - u rounded to float differs from the CPU's
/// double difference by at most half an ulp of |d| (~6e-8 relative), far inside the parity
/// tolerance; keeping them in T saves 3 registers and the per-node float-to-double conversions
/// that made the checked sweeps throughput-bound on the FP64 and conversion pipes.
template <typename T>
struct StatsAcc {
  double sum_sq, sum;
  T max_abs, min, max;
};

template <typename T>
__device__ __forceinline__ StatsAcc<T> stats_acc_identity() {
  return {0.0, 0.0, T(0), T(__builtin_huge_val()), T(-__builtin_huge_val())};
}

__device__ __forceinline__ StatsPartial to_partial(const StatsPartial& p) { return p; }
template <typename T>
__device__ __forceinline__ StatsPartial to_partial(const StatsAcc<T>& a) {
  return {a.sum_sq, static_cast<double>(a.max_abs), static_cast<double>(a.min),
          static_cast<double>(a.max), a.sum};
}

/// Adds the N updates prev[e] -> next[e] whose bit e is set in `mask`: d, d^2 and the sum of
/// the vector are formed in T and folded into the double sums once per vector, so a float
/// thread converts 2 values per vector instead of 3 per node. NaN in d reaches max_abs.
template <typename T, int N>
__device__ __forceinline__ void stats_add_vec(StatsAcc<T>& p, const T (&prev)[N],
                                              const T (&next)[N], unsigned mask) {
  T sq = T(0), sum = T(0);
#pragma unroll
  for (int e = 0; e < N; ++e) {
    if (!(mask & (1u << e))) continue;
    const T d = next[e] - prev[e];
    sq = fma(d, d, sq);
    sum += next[e];
    const T ad = fabs(d);
    if (ad > p.max_abs || isnan(ad)) p.max_abs = ad;
    p.min = fmin(p.min, next[e]);
    p.max = fmax(p.max, next[e]);
  }
  p.sum_sq += static_cast<double>(sq);
  p.sum += static_cast<double>(sum);
}

/// Adds one update to a thread's stats (the scalar kernels).
template <typename T>
__device__ __forceinline__ void stats_add(StatsAcc<T>& p, T prev, T next) {
  const T pv[1] = {prev}, nx[1] = {next};
  stats_add_vec<T, 1>(p, pv, nx, 1u);
}

/// Where a checked sweep's stats go: every block stores its partial, and the last block to
/// finish (atomic ticket) reduces all partials in a fixed order and stores the total, so the
/// sweep needs no second launch and stays bit-deterministic whichever block comes last.
struct StatsSink {
  StatsPartial* partials = nullptr;  // one per block, at the linear block index
  unsigned* ticket = nullptr;        // blocks finished, zero between sweeps (the last resets it);
                                     // null: only store the partials, the host reduces them
  StatsPartial* result = nullptr;    // the total (mapped pinned host memory)
  StatsSink() = default;
  __host__ __device__ StatsSink(std::nullptr_t) {}
  StatsSink(StatsPartial* p, unsigned* t, StatsPartial* r) : partials(p), ticket(t), result(r) {}
  __host__ __device__ explicit operator bool() const { return partials != nullptr; }
};

/// Reduces the threads' partials of a BX x BY block in CUB's fixed tree order and has thread 0
/// store the result at `partials[block]`. Every thread of the block must call it.
template <int BX, int BY, typename Acc>
__device__ __forceinline__ void block_stats_store(const Acc& mine, StatsPartial* partials,
                                                  long long block) {
  using Reduce = cub::BlockReduce<StatsPartial, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY>;
  __shared__ typename Reduce::TempStorage temp;
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const StatsPartial total = Reduce(temp).Reduce(to_partial(mine), StatsCombine{});
  if (tid == 0) partials[block] = total;
}

__device__ __forceinline__ StatsPartial load_partial_cg(const StatsPartial* p) {
  // L2 loads: other blocks wrote these, and L1 is not coherent with their stores.
  return {__ldcg(&p->sum_sq), __ldcg(&p->max_abs), __ldcg(&p->min), __ldcg(&p->max),
          __ldcg(&p->sum)};
}

/// block_stats_store, then the last block of the grid reduces every block's partial (thread t
/// takes elements t, t + BX*BY, ... in order, then the same CUB tree) into `sink.result`.
/// Not inlined, so that the sweep loop's registers do not carry it; the arguments come by value
/// (AccArg = the accumulator type), in registers: by reference they go through a 32-64 byte
/// stack frame in local memory, which in the 2D rows kernels' many small blocks costs 5% more
/// L2 traffic per checked sweep (Nsight Compute, H100; docs/performance-history.md, "Issue 14,
/// profiled"). The vector marches pass a reference
/// (AccArg = const Acc&): by value took vmarch4p1's float instantiation from 72 to 80 registers
/// (ptxas sm_90), a block per SM fewer, while its few large blocks make the frame's traffic small.
template <int BX, int BY, typename AccArg>
__device__ __noinline__ void block_stats_finish(AccArg mine, const StatsSink sink) {
  using Reduce = cub::BlockReduce<StatsPartial, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY>;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ bool last;
  constexpr int kThreads = BX * BY;
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
  const StatsPartial total = Reduce(temp).Reduce(to_partial(mine), StatsCombine{});
  if (tid == 0) {
    sink.partials[block_index_of()] = total;
    if (!sink.ticket) return;
    __threadfence();  // the partial is visible device-wide before the ticket counts it
    last = atomicAdd(sink.ticket, 1u) == blocks - 1;
  }
  if (!sink.ticket) return;  // uniform: the same sink for every block
  __syncthreads();
  if (!last) return;
  __threadfence();
  const StatsCombine combine;
  StatsPartial acc = stats_identity();
  unsigned e = tid;
  // Four partials in flight per step; the combine order is still element order.
  for (; e + 3 * kThreads < blocks; e += 4 * kThreads) {
    const StatsPartial p0 = load_partial_cg(sink.partials + e);
    const StatsPartial p1 = load_partial_cg(sink.partials + e + kThreads);
    const StatsPartial p2 = load_partial_cg(sink.partials + e + 2 * kThreads);
    const StatsPartial p3 = load_partial_cg(sink.partials + e + 3 * kThreads);
    acc = combine(combine(combine(combine(acc, p0), p1), p2), p3);
  }
  for (; e < blocks; e += kThreads) acc = combine(acc, load_partial_cg(sink.partials + e));
  __syncthreads();  // temp is reused
  const StatsPartial grand = Reduce(temp).Reduce(acc, StatsCombine{});
  if (tid == 0) {
    *sink.result = grand;
    *sink.ticket = 0;  // ready for the next checked sweep (launches on one stream serialise)
  }
}

/// The sink overload every stencil kernel calls.
template <int BX, int BY, typename Acc>
__device__ __forceinline__ void block_stats_store(const Acc& mine, const StatsSink& sink,
                                                  long long) {
  block_stats_finish<BX, BY>(mine, sink);
}

/// The block's linear index, also its slot in the partials array.
__device__ __forceinline__ long long block_index() {
  return blockIdx.x + static_cast<long long>(gridDim.x) *
                          (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
}

}  // namespace fdsolve::cuda
