// 2D 5-point sweep as an overlapped tile: a block stages its BX x (BY*RY) tile plus a one-node
// halo in shared memory (neighbouring tiles overlap by the halo), then updates the tile.
#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

/// Block BX x BY threads; each thread updates RY rows spaced BY apart, so every row of the tile
/// is one coalesced warp-wide access and each thread has RY loads in flight.
template <typename T, int BX, int BY, int RY, bool Stats>
__global__ void __launch_bounds__(BX* BY)
    tile2d_kernel(const DevArgs<T> a, const StatsSink partials) {
  constexpr int TY = BY * RY;
  constexpr int W = BX + 2;  // shared row: left halo, BX nodes, right halo
  __shared__ T tile[(TY + 2) * W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long x0 = a.lo[0] + static_cast<long long>(blockIdx.x) * BX;
  const long long y0 = a.lo[1] + static_cast<long long>(blockIdx.y) * TY;
  const long long x = x0 + tx;
  const T* __restrict__ in = a.in + a.lo[2] * a.plane;

  // Stage rows y0-1 .. y0+TY of the tile (clipped to the box's halo, which always exists).
#pragma unroll
  for (int r0 = 0; r0 < TY + 2; r0 += BY) {
    const int r = r0 + ty;
    const long long y = y0 - 1 + r;
    if (r < TY + 2 && y <= a.hi[1]) {
      const T* row = in + y * a.pitch;
      if (x <= a.hi[0]) tile[r * W + tx + 1] = __ldg(row + x);
      if (tx == 0) tile[r * W] = __ldg(row + x0 - 1);
      if (tx == 1 && x0 + BX <= a.hi[0]) tile[r * W + BX + 1] = __ldg(row + x0 + BX);
    }
  }
  __syncthreads();

  StatsAcc<T> mine;
  if constexpr (Stats) mine = stats_acc_identity<T>();
  if (x < a.hi[0]) {
#pragma unroll
    for (int q = 0; q < RY; ++q) {
      const int r = ty + q * BY;
      const long long y = y0 + r;
      if (y < a.hi[1]) {
        const long long c = a.lo[2] * a.plane + y * a.pitch + x;
        const T s = a.src ? a.w.source_scale * a.src[c] : a.w.source;
        const index_t t = (r + 1) * W + tx + 1;
        const T v = update_5pt<T>(tile, t, W, a.w, s);
        a.out[c] = v;
        if constexpr (Stats) stats_add(mine, tile[t], v);
      }
    }
  }
  if constexpr (Stats) block_stats_finish<BX, BY>(mine, partials);
}

template <typename T, int BX, int BY, int RY>
dim3 tile2d_grid(const DevArgs<T>& a, int, bool) {
  return dim3(static_cast<unsigned>(ceil_div(a.hi[0] - a.lo[0], BX)),
              static_cast<unsigned>(ceil_div(a.hi[1] - a.lo[1], BY * RY)),
              static_cast<unsigned>(a.hi[2] - a.lo[2]));
}

template <typename T, int BX, int BY, int RY>
void tile2d_launch(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  const dim3 block(BX, BY);
  if (partials)
    tile2d_kernel<T, BX, BY, RY, true><<<grid, block, 0, s>>>(a, partials);
  else
    tile2d_kernel<T, BX, BY, RY, false><<<grid, block, 0, s>>>(a, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BX, int BY, int RY>
Variant<T> tile2d(const char* name) {
  return {name, &tile2d_grid<T, BX, BY, RY>, &tile2d_launch<T, BX, BY, RY>};
}

}  // namespace

template <typename T>
void add_tile2d_variants(std::vector<Variant<T>>& table) {
  // Names: tile<BX>x<BY>r<RY>, block BX x BY threads, RY rows per thread (tile BX x BY*RY).
  table.push_back(tile2d<T, 32, 4, 1>("tile32x4r1"));
  table.push_back(tile2d<T, 32, 8, 1>("tile32x8r1"));
  table.push_back(tile2d<T, 64, 4, 1>("tile64x4r1"));
  table.push_back(tile2d<T, 128, 2, 1>("tile128x2r1"));
  table.push_back(tile2d<T, 32, 8, 4>("tile32x8r4"));
  table.push_back(tile2d<T, 64, 4, 4>("tile64x4r4"));
  table.push_back(tile2d<T, 128, 2, 8>("tile128x2r8"));
  table.push_back(tile2d<T, 256, 1, 8>("tile256x1r8"));
}

template void add_tile2d_variants<float>(std::vector<Variant<float>>&);
template void add_tile2d_variants<double>(std::vector<Variant<double>>&);

}  // namespace fdsolve::cuda
