// Multigrid's bottom solve on the device: the CG iteration of bottom_cg.hpp run by one thread
// block, so that the whole solve is one launch (recorded into a cycle's graph like any other)
// and its reductions never leave the chip. The coarsest grid has a few dozen to a few thousand
// nodes: one block holds it comfortably.
#include "block_team.cuh"
#include "cuda_check.cuh"
#include "transfer.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kThreads = kBottomCgThreads;

template <typename T>
__global__ void __launch_bounds__(kThreads) bottom_cg_kernel(BottomPlain<T> a) {
  __shared__ double scratch[kThreads];
  BlockTeam<kThreads> team{scratch};
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
