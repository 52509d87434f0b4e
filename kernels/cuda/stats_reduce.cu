// Fixed-order reduction of the per-block stats partials of grids with too many blocks for the
// fused last-block reduction: every pass assigns each block a fixed
// range and each thread fixed elements of it, so checked sweeps are bit-identical run to run.
#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kPerThread = 8;
constexpr long long kPerBlock = kThreads * kPerThread;

__global__ void __launch_bounds__(kThreads)
    reduce_pass(const StatsPartial* __restrict__ in, StatsPartial* __restrict__ out,
                long long count) {
  const long long first = blockIdx.x * kPerBlock;
  StatsPartial mine = stats_identity();
  const StatsCombine combine;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const long long e = first + threadIdx.x + static_cast<long long>(i) * kThreads;
    if (e < count) mine = combine(mine, in[e]);
  }
  block_stats_store<kThreads, 1>(mine, out, blockIdx.x);
}

}  // namespace

long long reduce_scratch_size(long long count) { return ceil_div(count, kPerBlock); }

StatsPartial* reduce_partials(StatsPartial* a, StatsPartial* b, long long count,
                              cudaStream_t stream) {
  // One pass turns `count` partials into ceil(count / 2048); a second buffer of that size
  // suffices because every later pass writes fewer elements than the one before.
  while (count > 1) {
    const long long blocks = ceil_div(count, kPerBlock);
    reduce_pass<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, count);
    FDSOLVE_CUDA_CHECK_LAUNCH();
    std::swap(a, b);
    count = blocks;
  }
  return a;
}

}  // namespace fdsolve::cuda
