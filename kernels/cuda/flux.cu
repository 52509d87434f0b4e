// The variable-coefficient operator on the device (flux_operator.hpp): one thread per node of the
// box, x fastest (coalesced), computing flux_update, the formula the CPU compiles from the same
// definition; the face form's sweeps march instead (flux_march.cu): the unchecked ones, and the
// checked ones in 3D without per-node arrays. The checked sweep and the inner product stride a
// bounded grid over the box (a fixed node-to-thread assignment), reduce each block in CUB's fixed
// tree order into a partial, and one block reduces the partials in a fixed order: bit-identical
// run to run.
#include <algorithm>
#include <cstddef>
#include <cub/block/block_reduce.cuh>
#include <string>

#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "flux.cuh"
#include "flux_march.cuh"
#include "flux_partial.cuh"

namespace fdsolve::cuda {

namespace {

constexpr int kBX = 64;
constexpr int kBY = 4;
constexpr int kThreads = kBX * kBY;
/// Most blocks per SM of the bounded grids (the checked sweep, the inner product): a full SM's
/// worth of 256-thread blocks; they launch as many as are resident (blocks_per_sm), so that one
/// wave covers the device.
constexpr int kBlocksPerSm = 8;
constexpr int kFinishThreads = 256;
constexpr long long kMaxGridYZ = 65535;

long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

struct DotMerge {
  __device__ DotPartial operator()(const DotPartial& a, const DotPartial& b) const {
    DotPartial r = a;
    merge_dot(r, b);
    return r;
  }
};

/// The box and the strides as kernel arguments: node (i, j, k) is at origin + k*plane +
/// j*pitch + i of every array of the layout.
struct Span {
  index_t lo[3], hi[3];
  index_t pitch, plane, origin;
};

Span span_of(const Layout& L, const Box& b) {
  return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}, L.pitch, L.plane, L.origin};
}

/// DotArgs's weights as plain kernel arguments.
struct DotWeights {
  bool half[6];
  index_t n[3];
};

/// Calls node(c, i, j, k) for the nodes of the box this thread owns: x from threadIdx.x and
/// blockIdx.x, rows from threadIdx.y and blockIdx.y, planes from blockIdx.z, each striding by
/// the grid. The assignment depends only on the box and the grid, never on timing.
template <typename F>
__device__ __forceinline__ void for_my_nodes(const Span& s, F&& node) {
  const index_t sx = static_cast<index_t>(gridDim.x) * kBX;
  const index_t sy = static_cast<index_t>(gridDim.y) * kBY;
  const index_t i0 = s.lo[0] + static_cast<index_t>(blockIdx.x) * kBX + threadIdx.x;
  for (index_t k = s.lo[2] + blockIdx.z; k < s.hi[2]; k += gridDim.z)
    for (index_t j = s.lo[1] + static_cast<index_t>(blockIdx.y) * kBY + threadIdx.y; j < s.hi[1];
         j += sy) {
      const index_t row = s.origin + k * s.plane + j * s.pitch;
      for (index_t i = i0; i < s.hi[0]; i += sx) node(row + i, i, j, k);
    }
}

__device__ __forceinline__ unsigned linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/// Blocks of `Kernel` resident per SM (at most kBlocksPerSm), asked once per kernel.
template <auto Kernel>
int blocks_per_sm() {
  static const int blocks = [] {
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, Kernel, kThreads, 0) != cudaSuccess) {
      cudaGetLastError();  // not sticky; one block per SM is still right
      n = 1;
    }
    return std::clamp(n, 1, kBlocksPerSm);
  }();
  return blocks;
}

/// One thread per node of the box where the grid allows (per_sm 0: the unchecked sweep and
/// combine), or a grid of at most sm_count * per_sm <= sm_count * kBlocksPerSm blocks (the
/// reductions, whose partials are then allocated once) striding over the box.
dim3 box_grid(const Box& b, int sm_count, int per_sm) {
  const bool bounded = per_sm > 0;
  const long long nx = ceil_div_ll(b.extent(0), kBX), ny = ceil_div_ll(b.extent(1), kBY);
  const long long nz = b.extent(2);
  if (!bounded)
    return dim3(static_cast<unsigned>(nx), static_cast<unsigned>(std::min(ny, kMaxGridYZ)),
                static_cast<unsigned>(std::min(nz, kMaxGridYZ)));
  const long long cap = static_cast<long long>(sm_count) * std::min(per_sm, kBlocksPerSm);
  const long long gx = std::min(nx, cap);
  const long long gy = std::min({ny, std::max(1LL, cap / gx), kMaxGridYZ});
  const long long gz = std::min({nz, std::max(1LL, cap / (gx * gy)), kMaxGridYZ});
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
}

long long blocks_of(dim3 g) { return static_cast<long long>(g.x) * g.y * g.z; }

/// The sweep: out = flux_update at every node of the box (`PlainFaces` 2: the 2D face form
/// without per-node arrays, flux_update_plain_faces). With Stats, each
/// block also stores the statistics of its nodes that are not held (norms of next - keep * u,
/// the range of the value written or, for a residual, of u; in double, as the CPU accumulates
/// them) at partials[linear block index]. Unchecked, 6 blocks per SM: 40 registers where
/// unbounded it takes 64, half the threads and loads in flight (measured:
/// docs/performance-history.md, "Variable-coefficient sweep and multigrid: measured").
template <typename T, bool Stats, int PlainFaces = 0>
__global__ void __launch_bounds__(kThreads, Stats ? 4 : 6)
    flux_sweep_kernel(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ src,
                      const T f_const, const FluxPlain<T> p, const Span s,
                      FluxPartial* __restrict__ partials) {
  FluxPartial acc = flux_identity();
  for_my_nodes(s, [&](index_t c, index_t, index_t, index_t) {
    const T f = src ? src[c] : f_const;
    T v;
    if constexpr (PlainFaces != 0)
      v = flux_update_plain_faces<PlainFaces>(in, p, c, f);
    else
      v = flux_update(in, p, c, f);
    out[c] = v;
    if constexpr (Stats) {
      if (!flux_held(p, c)) {
        const double next = static_cast<double>(v);
        // The range of the state: the value written, or u itself for a residual (keep 0).
        flux_accumulate(acc, static_cast<double>(p.keep * in[c]), next,
                        p.keep != T(0) ? next : static_cast<double>(in[c]));
      }
    }
  });
  if constexpr (Stats) {
    using Reduce = cub::BlockReduce<FluxPartial, kBX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, kBY>;
    __shared__ typename Reduce::TempStorage temp;
    const FluxPartial total = Reduce(temp).Reduce(acc, FluxCombine{});
    if (threadIdx.x == 0 && threadIdx.y == 0) partials[linear_block()] = total;
  }
}

/// y = a x + b y on the box's nodes whose held face is not negative (none held: null). y and
/// x may be the same array.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    combine_kernel(T* y, const T* x, const T a, const T b, const T* __restrict__ held,
                   const Span s) {
  for_my_nodes(s, [&](index_t c, index_t, index_t, index_t) {
    if (!held || held[c] >= T(0)) y[c] = a * x[c] + b * y[c];
  });
}

/// Each block's share of the exactly summed terms w_i a_i b_i (exact_sum.hpp) at
/// partials[linear block index].
template <typename T>
__global__ void __launch_bounds__(kThreads)
    dot_kernel(const T* __restrict__ a, const T* __restrict__ b, const DotWeights w, const Span s,
               const int scale, DotPartial* __restrict__ partials) {
  DotPartial acc;
  const double factor = exact_sum_factor(scale);
  for_my_nodes(s, [&](index_t c, index_t i, index_t j, index_t k) {
    add_dot_term(acc,
                 dot_term(static_cast<double>(a[c]), static_cast<double>(b[c]),
                          dot_weight(w.half, w.n, i, j, k)),
                 scale, factor);
  });
  using Reduce = cub::BlockReduce<DotPartial, kBX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, kBY>;
  __shared__ typename Reduce::TempStorage temp;
  const DotPartial total = Reduce(temp).Reduce(acc, DotMerge{});
  if (threadIdx.x == 0 && threadIdx.y == 0) partials[linear_block()] = total;
}

/// One block reduces `count` partials: thread t takes t, t + kFinishThreads, ... in order, then
/// CUB's fixed tree.
template <typename P, typename Op>
__global__ void __launch_bounds__(kFinishThreads)
    finish_kernel(const P* __restrict__ partials, long long count, const P identity,
                  P* __restrict__ total) {
  using Reduce = cub::BlockReduce<P, kFinishThreads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename Reduce::TempStorage temp;
  const Op op;
  P acc = identity;
  for (long long e = threadIdx.x; e < count; e += kFinishThreads) acc = op(acc, partials[e]);
  const P grand = Reduce(temp).Reduce(acc, op);
  if (threadIdx.x == 0) *total = grand;
}

template <typename U>
U* device_new(std::size_t count) {
  return static_cast<U*>(device_malloc(count * sizeof(U), "the flux operator"));
}

/// Launches the sweep; with `partials`, the checked one over a bounded grid, whose block count
/// it returns.
template <typename T>
long long launch_sweep(const SweepArgs<T>& args, int sm_count, FluxPartial* partials,
                       cudaStream_t stream) {
  const FluxPlain<T> p = flux_plain(args.flux, args.layout);
  const Span s = span_of(args.layout, args.box);
  const T f = T(args.weights.source);
  dim3 grid;
  // The checked sweep of the 2D face form without per-node arrays has an instantiation of its
  // own (flux_update_plain_faces), faster in float and double (bench rows flux-5pt with norms);
  // in 3D that form marches (flux_march_checked_applies).
  if (partials && plain_faces(p) && p.dims == 2) {
    constexpr auto kernel = flux_sweep_kernel<T, true, 2>;
    grid = box_grid(args.box, sm_count, blocks_per_sm<kernel>());
    kernel<<<grid, dim3(kBX, kBY), 0, stream>>>(args.in, args.out, args.source_field, f, p, s,
                                                partials);
  } else if (partials) {
    constexpr auto kernel = flux_sweep_kernel<T, true>;
    grid = box_grid(args.box, sm_count, blocks_per_sm<kernel>());
    kernel<<<grid, dim3(kBX, kBY), 0, stream>>>(args.in, args.out, args.source_field, f, p, s,
                                                partials);
  } else {
    grid = box_grid(args.box, sm_count, 0);
    flux_sweep_kernel<T, false><<<grid, dim3(kBX, kBY), 0, stream>>>(
        args.in, args.out, args.source_field, f, p, s, nullptr);
  }
  FDSOLVE_CUDA_CHECK_LAUNCH();
  return blocks_of(grid);
}

}  // namespace

FluxWorkspace::FluxWorkspace(int sm_count, int slots)
    : sm_count_(std::max(sm_count, 1)), slots_(slots) {
  const std::size_t blocks = static_cast<std::size_t>(sm_count_) * kBlocksPerSm;
  partials_ = device_new<FluxPartial>(blocks);
  results_ = device_new<FluxPartial>(static_cast<std::size_t>(slots_));
  dot_partials_ = device_new<DotPartial>(blocks);
  dot_result_ = device_new<DotPartial>(1);
  FDSOLVE_CUDA_CHECK(cudaMallocHost(&host_results_, slots_ * sizeof(FluxPartial)));
  FDSOLVE_CUDA_CHECK(cudaMallocHost(&host_dot_, sizeof(DotPartial)));
}

FluxWorkspace::~FluxWorkspace() {
  // Destructors must not throw; a sticky error surfaces at the next checked call.
  cudaFree(partials_);
  cudaFree(results_);
  cudaFree(dot_partials_);
  cudaFree(dot_result_);
  cudaFreeHost(host_results_);
  cudaFreeHost(host_dot_);
}

template <typename T>
void FluxWorkspace::sweep(const SweepArgs<T>& args, cudaStream_t stream) {
  if (args.box.empty()) return;
  if (flux_march_applies(args))
    launch_flux_march(args, stream);
  else
    launch_sweep(args, sm_count_, nullptr, stream);
}

template <typename T>
void FluxWorkspace::sweep_with_stats(const SweepArgs<T>& args, int slot, cudaStream_t stream) {
  if (slot < 0 || slot >= slots_)
    throw BackendError("flux statistics slot " + std::to_string(slot) + " out of range");
  // The 3D face form marches (flux_march.cu): a column's shared loads stay in registers, which
  // the one-thread-per-node kernel's 64 registers cannot hold in double (bench row flux-7pt
  // with norms).
  const long long blocks =
      flux_march_checked_applies(args) && !args.box.empty()
          ? launch_flux_march_checked(args, partials_, sm_count_, kBlocksPerSm, stream)
          : launch_sweep(args, sm_count_, partials_, stream);
  finish_kernel<FluxPartial, FluxCombine>
      <<<1, kFinishThreads, 0, stream>>>(partials_, blocks, flux_identity(), results_ + slot);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host_results_ + slot, results_ + slot, sizeof(FluxPartial),
                                     cudaMemcpyDeviceToHost, stream));
}

SweepStats FluxWorkspace::stats(int slot) const {
  const FluxPartial& p = host_results_[slot];
  SweepStats s;
  s.sum_sq = p.sum_sq;
  s.max_abs = p.max_abs;
  s.count = static_cast<index_t>(p.count);
  s.min = p.min;
  s.max = p.max;
  s.sum = p.sum;
  return s;
}

template <typename T>
void FluxWorkspace::combine(const LinearCombinationArgs<T>& args, cudaStream_t stream) {
  if (args.box.empty()) return;
  combine_kernel<T><<<box_grid(args.box, sm_count_, 0), dim3(kBX, kBY), 0, stream>>>(
      args.y, args.x, T(args.a), T(args.b), args.held_face, span_of(args.layout, args.box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
DotPartial FluxWorkspace::dot_terms(const DotArgs<T>& args, int scale, cudaStream_t stream) {
  if (args.box.empty()) return DotPartial{};
  DotWeights w{};
  for (int f = 0; f < 6; ++f) w.half[f] = args.half[f];
  for (int a = 0; a < 3; ++a) w.n[a] = args.layout.n[a];
  constexpr auto kernel = dot_kernel<T>;
  const dim3 grid = box_grid(args.box, sm_count_, blocks_per_sm<kernel>());
  kernel<<<grid, dim3(kBX, kBY), 0, stream>>>(args.a, args.b, w, span_of(args.layout, args.box),
                                              scale, dot_partials_);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  finish_kernel<DotPartial, DotMerge><<<1, kFinishThreads, 0, stream>>>(
      dot_partials_, blocks_of(grid), DotPartial{}, dot_result_);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host_dot_, dot_result_, sizeof(DotPartial),
                                     cudaMemcpyDeviceToHost, stream));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return *host_dot_;
}

template void FluxWorkspace::sweep<float>(const SweepArgs<float>&, cudaStream_t);
template void FluxWorkspace::sweep<double>(const SweepArgs<double>&, cudaStream_t);
template void FluxWorkspace::sweep_with_stats<float>(const SweepArgs<float>&, int, cudaStream_t);
template void FluxWorkspace::sweep_with_stats<double>(const SweepArgs<double>&, int, cudaStream_t);
template void FluxWorkspace::combine<float>(const LinearCombinationArgs<float>&, cudaStream_t);
template void FluxWorkspace::combine<double>(const LinearCombinationArgs<double>&, cudaStream_t);
template DotPartial FluxWorkspace::dot_terms<float>(const DotArgs<float>&, int, cudaStream_t);
template DotPartial FluxWorkspace::dot_terms<double>(const DotArgs<double>&, int,
                                                        cudaStream_t);

}  // namespace fdsolve::cuda
