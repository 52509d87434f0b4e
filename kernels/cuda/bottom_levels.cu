// Multigrid's bottom levels on the device: the team code of bottom_levels_team.hpp run by one
// thread block, so that every step of the levels below a few thousand nodes (each its own
// launch level by level, about 2 us a graph node) is one launch, recorded into a cycle's graph
// like any other. The levels' fields stay in global memory: the block's passes over a level of
// at most a few thousand nodes re-read it from L1 and L2.
#include "block_team.cuh"
#include "bottom_levels_team.hpp"
#include "cuda_check.cuh"
#include "transfer.cuh"

namespace fdsolve::cuda {
namespace {

/// Threads of the block: the largest block, since each pass runs over a whole level at once
/// (4096 nodes: 4 a thread) and nothing else runs beside it.
constexpr int kThreads = 512;
static_assert(kThreads >= kBottomCgThreads, "the bottom solve's team is part of the block");

/// The block as the team of the level passes; its first kBottomCgThreads threads are the
/// bottom solve's team (block_team.cuh), whose sums then add as Backend::bottom_solve's do.
struct LevelTeam {
  double* scratch;  // kBottomCgThreads values of shared memory
  __device__ int rank() const { return static_cast<int>(threadIdx.x); }
  __device__ int size() const { return kThreads; }
  __device__ void sync() const { __syncthreads(); }
  __device__ BlockTeam<kBottomCgThreads> cg() const { return {scratch}; }
};

// Kernel parameters above 4 KiB need CUDA 12.1 and a Volta or later device; 32764 bytes at most.
static_assert(sizeof(BottomLevelsPlain<double>) <= 32764, "the levels must fit the parameters");

/// The arguments stay in the parameter space (__grid_constant__): the passes index the levels
/// at run time, which would otherwise copy all of them (4.3 KiB in double) to every thread's stack.
template <int Points, typename T>
__global__ void __launch_bounds__(kThreads)
    bottom_levels_kernel(const __grid_constant__ BottomLevelsPlain<T> a) {
  __shared__ double scratch[kBottomCgThreads];
  LevelTeam team{scratch};
  bottom_levels<Points>(a, team);
}

template <int Points, typename T>
void launch(const BottomLevelsPlain<T>& p, cudaStream_t stream) {
  bottom_levels_kernel<Points, T><<<1, kThreads, 0, stream>>>(p);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_bottom_levels(const BottomLevelsArgs<T>& args, cudaStream_t stream) {
  const BottomLevelsPlain<T> p = bottom_levels_plain(args);
  if (args.levels.front().layout.dims == 2) return launch<5>(p, stream);
  switch (args.levels.front().residual.points) {
    case 7:
      return launch<7>(p, stream);
    case 19:
      return launch<19>(p, stream);
    default:
      return launch<27>(p, stream);
  }
}

template void launch_bottom_levels<float>(const BottomLevelsArgs<float>&, cudaStream_t);
template void launch_bottom_levels<double>(const BottomLevelsArgs<double>&, cudaStream_t);

}  // namespace fdsolve::cuda
