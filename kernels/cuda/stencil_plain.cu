// The plain kernels: one thread per node (a checked sweep's a few), reading every neighbour
// from global memory (the L1 cache does the reuse). The reference variant and a bench row; it
// shares point_update.hpp's formulas with the CPU.
#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kBX = 64;
constexpr int kBY = 4;

/// One thread per node of a (j, k) row; a checked sweep's thread takes every
/// `gridDim.y`-th block row and `gridDim.z`-th plane (plain_grid gives it fewer blocks), so
/// that the block reductions and the last block's sum over the partials stay a small part of
/// the sweep, and forms two planes' updates before it stores either: its statistics take twice
/// the registers (half the resident threads: four blocks an SM), and two nodes' loads in flight
/// make up for it. The unchecked sweep's minimum of blocks stays unset (0): a 1 takes the 19-
/// and 27-point forms from 32 to 54 and 72 registers.
template <int Points, typename T, bool Stats>
__global__ void __launch_bounds__(kBX* kBY, Stats ? 4 : 0)
    plain_kernel(const DevArgs<T> a, const StatsSink partials) {
  const long long i = a.lo[0] + blockIdx.x * static_cast<long long>(kBX) + threadIdx.x;
  const auto at = [&](long long j, long long k) { return k * a.plane + j * a.pitch + i; };
  const auto update = [&](long long c) {
    const T s = a.src ? a.w.source_scale * a.src[c] : a.w.source;
    if constexpr (Points == 5)
      return update_5pt(a.in, c, a.pitch, a.w, s);
    else
      return update_3d<Points>(a.in, c, a.pitch, a.plane, a.w, s);
  };
  StatsAcc<T> mine = stats_acc_identity<T>();
  const auto store = [&](long long j, long long k, long long c, T v) {
    a.out[c] = v;
    if (a.xg.any) {
      const T vs[1] = {v};
      write_x_ghosts<T, 1>(a.xg, x_ghost_lanes<T, 1>(a.xg, i, 1u), a.out + c, vs, j, k);
    }
    if constexpr (Stats) stats_add(mine, a.in[c], v);
  };
  const long long j0 = a.lo[1] + blockIdx.y * static_cast<long long>(kBY) + threadIdx.y;
  if constexpr (Stats) {
    const long long dz = gridDim.z, dj = static_cast<long long>(kBY) * gridDim.y;
    if (i < a.hi[0])
      for (long long k = a.lo[2] + blockIdx.z; k < a.hi[2]; k += 2 * dz) {
        const bool second = k + dz < a.hi[2];
        for (long long j = j0; j < a.hi[1]; j += dj) {
          const long long c0 = at(j, k), c1 = at(j, second ? k + dz : k);
          const T v0 = update(c0), v1 = update(c1);
          store(j, k, c0, v0);
          if (second) store(j, k + dz, c1, v1);
        }
      }
    block_stats_finish<kBX, kBY>(mine, partials);
  } else {
    if (i < a.hi[0] && j0 < a.hi[1]) {
      const long long k = a.lo[2] + blockIdx.z, c = at(j0, k);
      store(j0, k, c, update(c));
    }
  }
}

/// The blocks a checked sweep aims at per multiprocessor: a few waves of resident blocks.
constexpr long long kCheckedBlocksPerSm = 32;

template <typename T>
dim3 plain_grid(const DevArgs<T>& a, int sm_count, bool stats) {
  const long long bx = ceil_div(a.hi[0] - a.lo[0], kBX);
  long long by = ceil_div(a.hi[1] - a.lo[1], kBY);
  long long bz = a.hi[2] - a.lo[2];
  if (stats) {
    const long long target = std::max<long long>(1, kCheckedBlocksPerSm * sm_count);
    bz = std::min(bz, std::max<long long>(1, target / (bx * by)));
    by = std::min(by, std::max<long long>(1, target / (bx * bz)));
  }
  return dim3(static_cast<unsigned>(bx), static_cast<unsigned>(by), static_cast<unsigned>(bz));
}

template <int Points, typename T>
void launch_points(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  const dim3 block(kBX, kBY);
  if (partials)
    plain_kernel<Points, T, true><<<grid, block, 0, s>>>(a, partials);
  else
    plain_kernel<Points, T, false><<<grid, block, 0, s>>>(a, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_plain_2d(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  launch_points<5>(a, grid, partials, s);
}

/// The 3D plain kernel drops the zero-by-definition terms of the 7- and 19-point stencils,
/// exactly as the CPU does.
template <typename T>
void launch_plain_3d(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  switch (a.points) {
    case 7:
      return launch_points<7>(a, grid, partials, s);
    case 19:
      return launch_points<19>(a, grid, partials, s);
    default:
      return launch_points<27>(a, grid, partials, s);
  }
}

}  // namespace

template <typename T>
void add_plain_variants(int dims, std::vector<Variant<T>>& table) {
  if (dims == 2)
    table.push_back({"plain", &plain_grid<T>, &launch_plain_2d<T>, &always_writes_x_ghosts<T>});
  else
    table.push_back({"plain", &plain_grid<T>, &launch_plain_3d<T>, &always_writes_x_ghosts<T>});
}

template void add_plain_variants<float>(int, std::vector<Variant<float>>&);
template void add_plain_variants<double>(int, std::vector<Variant<double>>&);

}  // namespace fdsolve::cuda
