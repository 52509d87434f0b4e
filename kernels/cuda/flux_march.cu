// See flux_march.cuh. Why marching: one thread per node (flux.cu) reaches 43 % of the copy
// bandwidth in float and 67-69 % in double on the H200 (docs/performance-history.md, "The
// marching flux sweep: measured", beside this kernel's rows): with 16 bytes per node in float a
// thread issues too few loads to cover the latency, and a million short-lived blocks spend
// their time in index arithmetic and block turnover. A thread that walks a column reuses three
// of the five u values and one face of the previous node, and keeps loads of the next node in
// flight while it computes the current one.
#include <algorithm>
#include <cub/block/block_reduce.cuh>

#include "flux_operator.hpp"

#include "cuda_check.cuh"
#include "flux_march.cuh"
#include "flux_partial.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kMarchRun = 16;     // nodes along the marching axis per thread
constexpr int kBX2 = 128;         // 2D: threads along x per block
constexpr int kBX3 = 32, kBY3 = 4;  // 3D: threads along x and y per block
constexpr long long kMaxGridYZ = 65535;

__host__ __device__ long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

/// The box as plain arrays for device code.
struct Range {
  index_t lo[3], hi[3];
};

Range range_of(const Box& b) {
  return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}};
}

__device__ __forceinline__ int run_length(index_t start, index_t end) {
  return static_cast<int>(end - start < kMarchRun ? end - start : kMarchRun);
}

/// What the face form's march reads of FluxPlain, as the kernel's parameter. Passing the whole
/// FluxPlain, whose per-node array pointers this instantiation never reads, costs the 3D double
/// sweep 16 registers (56 to 72, and a spill; ptxas -v) and a tenth of its bandwidth (bench row
/// flux-7pt 3D double).
template <typename T>
struct FaceMarchPlain {
  const T* fx;
  const T* fy;
  const T* fz;
  T cx, cy, cz, alpha, keep, step, relax;
  index_t pitch, plane;
};

template <typename T>
FaceMarchPlain<T> face_march_plain(const FluxPlain<T>& p) {
  return {p.fx, p.fy, p.fz, p.cx, p.cy, p.cz, p.alpha, p.keep, p.step, p.relax, p.pitch, p.plane};
}

/// The per-node arrays (FluxOperator::step_scale, diagonal) of the instantiation that reads them.
template <typename T>
struct PerNodeArrays {
  const T* ss;
  const T* dg;
};

/// Marches one column: `at` the node at `first`, `stride` the step along the marching axis
/// (pitch in 2D, plane in 3D), `across` the other axis's stride in 3D (pitch), `count` nodes.
/// `PerNode`: the operator has per-node arrays besides the faces (FluxOperator::diagonal,
/// step_scale); a separate instantiation, because their loads and the registers they hold cost
/// the 3D float sweep a fifth of its bandwidth where no node reads them (bench row flux-7pt).
/// `Stats`: adds every node that is not held to `acc` (the checked sweep).
template <typename T, int Dims, bool PerNode, bool Stats = false>
__device__ __forceinline__ void march_column(const T* __restrict__ in, T* __restrict__ out,
                                             const T* __restrict__ src, T f_const,
                                             const FaceMarchPlain<T>& p,
                                             const PerNodeArrays<T>& node, index_t at,
                                             index_t stride, int count,
                                             FluxPartial* acc = nullptr) {
  // The marching axis's coefficient array and the other axes'.
  const T* __restrict__ fm = Dims == 2 ? p.fy : p.fz;
  T below = in[at - stride], centre = in[at];
  T face_below = flux_magnitude(fm[at - stride]);
  for (int n = 0; n < count; ++n, at += stride) {
    const T above = in[at + stride];
    const T face_above_raw = fm[at];
    const T east_raw = p.fx[at];
    FluxStencilValues<T> v;
    v.u = centre;
    v.f = src ? src[at] : f_const;
    if constexpr (PerNode) {
      v.step_scale = node.ss ? node.ss[at] : T(1);
      v.d = node.dg ? node.dg[at] : T(0);
    }
    v.bw = flux_magnitude(p.fx[at - 1]);
    v.be = flux_magnitude(east_raw);
    v.uw = in[at - 1];
    v.ue = in[at + 1];
    if constexpr (Dims == 2) {
      v.bs = face_below;
      v.bn = flux_magnitude(face_above_raw);
      v.us = below;
      v.un = above;
    } else {
      v.bs = flux_magnitude(p.fy[at - p.pitch]);
      v.bn = flux_magnitude(p.fy[at]);
      v.us = in[at - p.pitch];
      v.un = in[at + p.pitch];
      v.bd = face_below;
      v.bu = flux_magnitude(face_above_raw);
      v.ud = below;
      v.uu = above;
    }
    // A held node (negative +x face) keeps keep * u, as flux_update.
    const bool held = east_raw < T(0);
    const T value = held ? p.keep * centre : flux_face_update<Dims>(v, p);
    out[at] = value;
    if constexpr (Stats) {
      if (!held) {
        // The range of the state: the value written, or u itself for a residual (keep 0).
        const double next = static_cast<double>(value);
        flux_accumulate(*acc, static_cast<double>(p.keep * centre), next,
                        p.keep != T(0) ? next : static_cast<double>(centre));
      }
    }
    below = centre;
    centre = above;
    face_below = flux_magnitude(face_above_raw);
  }
}

template <typename T, bool PerNode>
__global__ void __launch_bounds__(kBX2) flux_march2d(const T* __restrict__ in, T* __restrict__ out,
                                                     const T* __restrict__ src, const T f_const,
                                                     const FaceMarchPlain<T> p,
                                                     const PerNodeArrays<T> node, Range b,
                                                     index_t origin) {
  const index_t i = b.lo[0] + static_cast<index_t>(blockIdx.x) * kBX2 + threadIdx.x;
  if (i >= b.hi[0]) return;
  const long long runs = ceil_div(b.hi[1] - b.lo[1], kMarchRun);
  for (long long r = blockIdx.y; r < runs; r += gridDim.y) {
    const index_t j0 = b.lo[1] + static_cast<index_t>(r) * kMarchRun;
    march_column<T, 2, PerNode>(in, out, src, f_const, p, node,
                                origin + b.lo[2] * p.plane + j0 * p.pitch + i,
                       p.pitch, run_length(j0, b.hi[1]));
  }
}

template <typename T, bool PerNode>
__global__ void __launch_bounds__(kBX3 * kBY3) flux_march3d(const T* __restrict__ in,
                                                            T* __restrict__ out,
                                                            const T* __restrict__ src,
                                                            const T f_const,
                                                            const FaceMarchPlain<T> p,
                                                            const PerNodeArrays<T> node, Range b,
                                                            index_t origin) {
  const index_t i = b.lo[0] + static_cast<index_t>(blockIdx.x) * kBX3 + threadIdx.x;
  const long long rows = ceil_div(b.hi[1] - b.lo[1], kBY3);
  const long long runs = ceil_div(b.hi[2] - b.lo[2], kMarchRun);
  if (i >= b.hi[0]) return;
  for (long long y = blockIdx.y; y < rows; y += gridDim.y) {
    const index_t j = b.lo[1] + static_cast<index_t>(y) * kBY3 + threadIdx.y;
    if (j >= b.hi[1]) continue;
    for (long long r = blockIdx.z; r < runs; r += gridDim.z) {
      const index_t k0 = b.lo[2] + static_cast<index_t>(r) * kMarchRun;
      march_column<T, 3, PerNode>(in, out, src, f_const, p, node,
                                origin + k0 * p.plane + j * p.pitch + i,
                         p.plane, run_length(k0, b.hi[2]));
    }
  }
}

/// The checked march in 3D, without per-node arrays, over a bounded grid: each thread strides
/// over x, rows and runs (a fixed node-to-thread assignment), adds its nodes to its statistics,
/// and each block reduces them in CUB's fixed tree order into partials[its linear index].
template <typename T>
__global__ void __launch_bounds__(kBX3 * kBY3) flux_march3d_checked(
    const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ src, const T f_const,
    const FaceMarchPlain<T> p, Range b, index_t origin, FluxPartial* __restrict__ partials) {
  FluxPartial acc = flux_identity();
  const long long rows = ceil_div(b.hi[1] - b.lo[1], kBY3);
  const long long runs = ceil_div(b.hi[2] - b.lo[2], kMarchRun);
  const PerNodeArrays<T> none{nullptr, nullptr};
  for (index_t i = b.lo[0] + static_cast<index_t>(blockIdx.x) * kBX3 + threadIdx.x; i < b.hi[0];
       i += static_cast<index_t>(gridDim.x) * kBX3)
    for (long long y = blockIdx.y; y < rows; y += gridDim.y) {
      const index_t j = b.lo[1] + static_cast<index_t>(y) * kBY3 + threadIdx.y;
      if (j >= b.hi[1]) continue;
      for (long long r = blockIdx.z; r < runs; r += gridDim.z) {
        const index_t k0 = b.lo[2] + static_cast<index_t>(r) * kMarchRun;
        march_column<T, 3, false, true>(in, out, src, f_const, p, none,
                                        origin + k0 * p.plane + j * p.pitch + i, p.plane,
                                        run_length(k0, b.hi[2]), &acc);
      }
    }
  using Reduce = cub::BlockReduce<FluxPartial, kBX3, cub::BLOCK_REDUCE_WARP_REDUCTIONS, kBY3>;
  __shared__ typename Reduce::TempStorage temp;
  const FluxPartial total = Reduce(temp).Reduce(acc, FluxCombine{});
  if (threadIdx.x == 0 && threadIdx.y == 0)
    partials[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = total;
}

}  // namespace

template <typename T>
long long launch_flux_march_checked(const SweepArgs<T>& args, FluxPartial* partials,
                                    int sm_count, int max_per_sm, cudaStream_t stream) {
  // One wave: as many blocks as are resident (a second, partial wave would leave most SMs idle).
  static const int resident = [] {
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, flux_march3d_checked<T>, kBX3 * kBY3,
                                                      0) != cudaSuccess) {
      cudaGetLastError();  // not sticky; one block per SM is still right
      n = 1;
    }
    return std::max(n, 1);
  }();
  const long long max_blocks = static_cast<long long>(sm_count) * std::min(resident, max_per_sm);
  const Box& b = args.box;
  const FaceMarchPlain<T> p = face_march_plain(flux_plain(args.flux, args.layout));
  const long long nx = ceil_div(b.extent(0), kBX3), rows = ceil_div(b.extent(1), kBY3);
  const long long runs = ceil_div(b.extent(2), kMarchRun);
  const long long gx = std::min(nx, max_blocks);
  const long long gy = std::min({rows, std::max(1LL, max_blocks / gx), kMaxGridYZ});
  const long long gz = std::min({runs, std::max(1LL, max_blocks / (gx * gy)), kMaxGridYZ});
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
  flux_march3d_checked<T><<<grid, dim3(kBX3, kBY3), 0, stream>>>(
      args.in, args.out, args.source_field, T(args.weights.source), p, range_of(b),
      args.layout.origin, partials);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  return gx * gy * gz;
}

template <typename T>
void launch_flux_march(const SweepArgs<T>& args, cudaStream_t stream) {
  const Box& b = args.box;
  if (b.empty()) return;
  const FluxPlain<T> plain = flux_plain(args.flux, args.layout);
  const FaceMarchPlain<T> p = face_march_plain(plain);
  const PerNodeArrays<T> node{plain.ss, plain.dg};
  const bool per_node = plain.ss || plain.dg;
  const T f = T(args.weights.source);
  const Range r = range_of(b);
  if (args.layout.dims == 2) {
    const dim3 grid(static_cast<unsigned>(ceil_div(b.extent(0), kBX2)),
                    static_cast<unsigned>(std::min(ceil_div(b.extent(1), kMarchRun), kMaxGridYZ)));
    if (per_node)
      flux_march2d<T, true><<<grid, kBX2, 0, stream>>>(args.in, args.out, args.source_field, f, p,
                                                       node, r, args.layout.origin);
    else
      flux_march2d<T, false><<<grid, kBX2, 0, stream>>>(args.in, args.out, args.source_field, f,
                                                        p, node, r, args.layout.origin);
  } else {
    const dim3 grid(static_cast<unsigned>(ceil_div(b.extent(0), kBX3)),
                    static_cast<unsigned>(std::min(ceil_div(b.extent(1), kBY3), kMaxGridYZ)),
                    static_cast<unsigned>(std::min(ceil_div(b.extent(2), kMarchRun), kMaxGridYZ)));
    if (per_node)
      flux_march3d<T, true><<<grid, dim3(kBX3, kBY3), 0, stream>>>(
          args.in, args.out, args.source_field, f, p, node, r, args.layout.origin);
    else
      flux_march3d<T, false><<<grid, dim3(kBX3, kBY3), 0, stream>>>(
          args.in, args.out, args.source_field, f, p, node, r, args.layout.origin);
  }
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template void launch_flux_march<float>(const SweepArgs<float>&, cudaStream_t);
template long long launch_flux_march_checked<float>(const SweepArgs<float>&, FluxPartial*, int,
                                                    int, cudaStream_t);
template long long launch_flux_march_checked<double>(const SweepArgs<double>&, FluxPartial*, int,
                                                     int, cudaStream_t);
template void launch_flux_march<double>(const SweepArgs<double>&, cudaStream_t);

}  // namespace fdsolve::cuda
