// The plain kernels: one thread per node, reading every neighbour from global memory (the L1
// cache does the reuse). The reference variant and a bench row; it shares point_update.hpp's
// formulas with the CPU.
#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kBX = 64;
constexpr int kBY = 4;

template <int Points, typename T, bool Stats>
__global__ void __launch_bounds__(kBX* kBY)
    plain_kernel(const DevArgs<T> a, const StatsSink partials) {
  const long long i = a.lo[0] + blockIdx.x * static_cast<long long>(kBX) + threadIdx.x;
  const long long j = a.lo[1] + blockIdx.y * static_cast<long long>(kBY) + threadIdx.y;
  const long long k = a.lo[2] + blockIdx.z;
  StatsAcc<T> mine = stats_acc_identity<T>();
  if (i < a.hi[0] && j < a.hi[1]) {
    const long long c = k * a.plane + j * a.pitch + i;
    const T s = a.src ? a.w.source_scale * a.src[c] : a.w.source;
    T v;
    if constexpr (Points == 5)
      v = update_5pt(a.in, c, a.pitch, a.w, s);
    else
      v = update_3d<Points>(a.in, c, a.pitch, a.plane, a.w, s);
    a.out[c] = v;
    if (a.xg.any) {
      const T vs[1] = {v};
      write_x_ghosts<T, 1>(a.xg, x_ghost_lanes<T, 1>(a.xg, i, 1u), a.out + c, vs, j, k);
    }
    if constexpr (Stats) stats_add(mine, a.in[c], v);
  }
  if constexpr (Stats) block_stats_finish<kBX, kBY>(mine, partials);
}

template <typename T>
dim3 plain_grid(const DevArgs<T>& a, int, bool) {
  return dim3(static_cast<unsigned>(ceil_div(a.hi[0] - a.lo[0], kBX)),
              static_cast<unsigned>(ceil_div(a.hi[1] - a.lo[1], kBY)),
              static_cast<unsigned>(a.hi[2] - a.lo[2]));
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
