// Multigrid's bottom solve on the device: the CG iteration of bottom_cg.hpp run by one thread
// block, so that the whole solve is one launch (recorded into a cycle's graph like any other)
// and its reductions never leave the chip. The coarsest grid has a few dozen to a few thousand
// nodes: one block holds it comfortably.
#include "cuda_check.cuh"
#include "transfer.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kThreads = 256;

/// One thread block as bottom_cg's team: a fixed-order tree reduction in shared memory.
struct BlockTeam {
  double* scratch;  // kThreads values
  __device__ int rank() const { return static_cast<int>(threadIdx.x); }
  __device__ int size() const { return kThreads; }
  __device__ void sync() const { __syncthreads(); }
  __device__ double sum(double v) const {
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
      if (static_cast<int>(threadIdx.x) < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
      __syncthreads();
    }
    const double total = scratch[0];
    __syncthreads();  // every thread has read the total before the scratch is reused
    return total;
  }
};

template <typename T>
__global__ void __launch_bounds__(kThreads) bottom_cg_kernel(BottomPlain<T> a) {
  __shared__ double scratch[kThreads];
  BlockTeam team{scratch};
  bottom_cg(a, team);
}

}  // namespace

template <typename T>
void launch_bottom_solve(const BottomSolveArgs<T>& args, cudaStream_t stream) {
  if (args.box.empty()) return;
  bottom_cg_kernel<T><<<1, kThreads, 0, stream>>>(bottom_plain(args));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template void launch_bottom_solve<float>(const BottomSolveArgs<float>&, cudaStream_t);
template void launch_bottom_solve<double>(const BottomSolveArgs<double>&, cudaStream_t);

}  // namespace fdsolve::cuda
