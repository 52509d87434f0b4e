// Launch and variant of the 2D two-sweep marching kernel (march2d_kernel.cuh): at most two
// sweeps a pass, for multigrid's smoothing, plain, checked (the statistics of the first
// sweep's update: multigrid's probe) or corrected (the coarse correction added as u is read:
// the prolongation fused into the post-smoothing); listed with the temporally blocked variants.
#include <algorithm>

#include "cuda_check.cuh"
#include "march2d_kernel.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kMarchThreads = 128;

/// Rows per chunk: enough blocks for every SM to hold a full complement (2048 threads), and
/// at least 16 rows, so that the two rows a chunk reloads on each side stay a small share.
template <int BX, typename T>
long long march2d_chunk(const StepArgs<T>& a, int sm_count) {
  const long long ny = a.hi[1] - a.lo[1];
  const long long columns = ceil_div(a.hi[0] - a.lo[0], BX - 4);
  const long long wanted = static_cast<long long>(sm_count) * (2048 / BX);
  const long long per_column = std::max(1LL, wanted / std::max(1LL, columns));
  return std::max(16LL, ceil_div(ny, per_column));
}

/// The checked form's hooks: the update's statistics accumulated per thread and reduced per
/// block as every checked sweep's are (sweep_common.cuh).
template <typename T, int BX>
struct CubProbe {
  using Acc = StatsAcc<T>;
  using Sink = StatsSink;
  __device__ static Acc start() { return stats_acc_identity<T>(); }
  __device__ static void add(Acc& acc, T old, T updated) { stats_add(acc, old, updated); }
  __device__ static void finish(const Acc& acc, const Sink& sink) {
    block_stats_finish<BX, 1>(acc, sink);
  }
};

template <typename T, int BX>
void march2d_launch(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  const long long chunk = march2d_chunk<BX>(a, sm_count);
  march2d_kernel<T, BX>
      <<<march2d_grid<BX>(a, chunk), dim3(BX), march2d_shared_bytes<T, BX>(), stream>>>(
          a, a.w2, steps, chunk, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BX>
void march2d_launch_checked(const DevArgs<T>& a, int steps, int sm_count, StatsSink sink,
                            cudaStream_t stream) {
  const long long chunk = march2d_chunk<BX>(a, sm_count);
  march2d_kernel<T, BX, CubProbe<T, BX>>
      <<<march2d_grid<BX>(a, chunk), dim3(BX), march2d_shared_bytes<T, BX>(), stream>>>(
          a, a.w2, steps, chunk, sink);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

/// The corrected form: multigrid's prolongation and post-smoothing in one pass.
template <typename T, int BX>
void march2d_launch_corrected(const DevArgs<T>& a, int steps, const CoarseCorrection<T>& correction,
                              int sm_count, cudaStream_t stream) {
  const long long chunk = march2d_chunk<BX>(a, sm_count);
  march2d_kernel<T, BX, NoProbe<T>, CoarseCorrection<T>>
      <<<march2d_grid<BX>(a, chunk), dim3(BX), march2d_shared_bytes<T, BX>(), stream>>>(
          a, a.w2, steps, chunk, nullptr, correction);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BX>
long long march2d_blocks(const DevArgs<T>& a, int sm_count) {
  const dim3 grid = march2d_grid<BX>(a, march2d_chunk<BX>(a, sm_count));
  return static_cast<long long>(grid.x) * grid.y;
}

/// The kernels are loaded here, when the backend builds its tables: with lazy module loading
/// (CUDA's default) a first launch would load them inside a timed solve (0.9 ms on an H100).
template <typename T, int BX>
StepVariant<T> march2d(const char* name) {
  cudaFuncAttributes attributes{};
  FDSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, march2d_kernel<T, BX>));
  FDSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, march2d_kernel<T, BX, CubProbe<T, BX>>));
  FDSOLVE_CUDA_CHECK(
      cudaFuncGetAttributes(&attributes, march2d_kernel<T, BX, NoProbe<T>, CoarseCorrection<T>>));
  return {name,
          2,
          &march2d_launch<T, BX>,
          &march2d_launch_checked<T, BX>,
          &march2d_blocks<T, BX>,
          &march2d_launch_corrected<T, BX>,
          true};
}

}  // namespace

template <typename T>
void add_march2d_variants(std::vector<StepVariant<T>>& table) {
  table.push_back(march2d<T, kMarchThreads>("march2"));
}

template void add_march2d_variants<float>(std::vector<StepVariant<float>>&);
template void add_march2d_variants<double>(std::vector<StepVariant<double>>&);

}  // namespace fdsolve::cuda
