// Multigrid's bottom levels on the device: the team code of bottom_levels_team.hpp run by one
// thread block, so that every step of the levels below a few thousand nodes (each its own
// launch level by level, about 2 us a graph node) is one launch, recorded into a cycle's graph
// like any other. The block copies the levels' fields into shared memory, runs every pass
// there and copies the corrections back: one SM's passes over global memory wait a memory
// round trip each (measured on an H100: 123 us for the six levels below 65x33, against the
// six levels' 78 launches), while a pass in shared memory takes a fraction of a microsecond.
// Levels too large for the block's shared memory run from global memory.
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

/// Elements of shared memory the levels' fields take: x, next and g of every level, and the
/// bottom solve's r, p and q (of the coarsest level's layout).
template <typename T>
std::size_t shared_elements(const BottomLevelsPlain<T>& a) {
  std::size_t n = 0;
  for (int l = 0; l < a.count; ++l) n += 3 * static_cast<std::size_t>(a.level[l].size);
  if (a.cg) n += 3 * static_cast<std::size_t>(a.level[a.count - 1].size);
  return n;
}

template <typename T>
__device__ void copy_field(T* to, const T* from, index_t n) {
  for (index_t e = threadIdx.x; e < n; e += kThreads) to[e] = from[e];
}

/// The same steps with every field in (dynamic) shared memory: the arguments are copied into
/// shared memory with the fields' pointers moved there, the fields copied in, and afterwards
/// every level's x and next (whichever holds its correction, and the scratch the host's
/// recording expects as it leaves them) copied back.
template <int Points, typename T>
__global__ void __launch_bounds__(kThreads)
    bottom_levels_shared_kernel(const __grid_constant__ BottomLevelsPlain<T> a) {
  extern __shared__ __align__(16) unsigned char arena[];
  __shared__ double scratch[kBottomCgThreads];
  __shared__ BottomLevelsPlain<T> s;
  {
    const auto* from = reinterpret_cast<const unsigned char*>(&a);
    auto* to = reinterpret_cast<unsigned char*>(&s);
    for (std::size_t b = threadIdx.x; b < sizeof s; b += kThreads) to[b] = from[b];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    T* free = reinterpret_cast<T*>(arena);
    const auto take = [&](index_t n) {
      T* p = free;
      free += n;
      return p;
    };
    for (int l = 0; l < s.count; ++l) {
      s.level[l].x = take(a.level[l].size);
      s.level[l].next = take(a.level[l].size);
      s.level[l].g = take(a.level[l].size);
    }
    if (s.cg) {  // the coarsest level's x and g, and the solve's own scratch
      const LevelPlain<T>& last = s.level[s.count - 1];
      const index_t n = a.level[s.count - 1].size;
      s.bottom.x = a.bottom.x == a.level[s.count - 1].x ? last.x : last.next;
      s.bottom.g = last.g;
      s.bottom.r = take(n);
      s.bottom.p = take(n);
      s.bottom.q = take(n);
    }
  }
  __syncthreads();
  for (int l = 0; l < s.count; ++l) {
    copy_field(s.level[l].x, a.level[l].x, a.level[l].size);
    copy_field(s.level[l].next, a.level[l].next, a.level[l].size);
    copy_field(s.level[l].g, a.level[l].g, a.level[l].size);
  }
  if (s.cg) {
    const index_t n = a.level[s.count - 1].size;
    copy_field(s.bottom.r, a.bottom.r, n);
    copy_field(s.bottom.p, a.bottom.p, n);
    copy_field(s.bottom.q, a.bottom.q, n);
  }
  __syncthreads();
  LevelTeam team{scratch};
  bottom_levels<Points>(s, team);
  for (int l = 0; l < s.count; ++l) {
    copy_field(a.level[l].x, s.level[l].x, a.level[l].size);
    copy_field(a.level[l].next, s.level[l].next, a.level[l].size);
  }
}

/// The opt-in shared memory of one block (cudaDevAttrMaxSharedMemoryPerBlockOptin) less what
/// the kernel's static shared memory takes; asked once.
template <int Points, typename T>
std::size_t dynamic_shared_limit() {
  static const std::size_t limit = [] {
    // The first launch may come while a cycle is being recorded: these calls enqueue nothing,
    // and the relaxed mode lets the capture tolerate them (the previous mode comes back).
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    FDSOLVE_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    int device = 0, optin = 0;
    FDSOLVE_CUDA_CHECK(cudaGetDevice(&device));
    FDSOLVE_CUDA_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    cudaFuncAttributes attributes{};
    FDSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, bottom_levels_shared_kernel<Points, T>));
    const std::size_t room = static_cast<std::size_t>(optin) - attributes.sharedSizeBytes;
    FDSOLVE_CUDA_CHECK(cudaFuncSetAttribute(bottom_levels_shared_kernel<Points, T>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(room)));
    FDSOLVE_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    return room;
  }();
  return limit;
}

template <int Points, typename T>
void launch(const BottomLevelsPlain<T>& p, cudaStream_t stream) {
  const std::size_t bytes = shared_elements(p) * sizeof(T);
  if (bytes <= dynamic_shared_limit<Points, T>()) {
    bottom_levels_shared_kernel<Points, T><<<1, kThreads, bytes, stream>>>(p);
  } else {
    bottom_levels_kernel<Points, T><<<1, kThreads, 0, stream>>>(p);
  }
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
