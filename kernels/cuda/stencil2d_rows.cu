// 2D 5-point sweep by register marching: each thread owns a 16-byte vector of a row and walks
// down a chunk of rows, keeping the rows above and at the node in registers; x-neighbours come
// from the adjacent lanes by warp shuffles. Every input value is loaded once per chunk.
#include <algorithm>

#include "cuda_check.cuh"
#include "variants.cuh"
#include "vector_access.cuh"

namespace fdsolve::cuda {
namespace {

/// BX threads per block along x, each VEC values wide; G rows are loaded per step so that G
/// vector loads are in flight per thread.
/// The stats instantiations of G <= 4 are capped at 64 registers (1024 threads per SM, as
/// without stats): uncapped they took 72-74 and lost a block per SM.
template <typename T, int BX, int G, bool Stats>
__global__ void __launch_bounds__(BX, Stats&& G <= 4 ? 1024 / BX : 1)
    rows2d_kernel(const DevArgs<T> a, long long chunk, const StatsSink partials) {
  constexpr int N = Vec16<T>::n;
  const unsigned lane = threadIdx.x & 31;
  const long long xa = a.lo[0] - a.lo[0] % N;  // vectors start on 16-byte boundaries
  const long long x = xa + (static_cast<long long>(blockIdx.x) * BX + threadIdx.x) * N;
  const long long y0 = a.lo[1] + static_cast<long long>(blockIdx.y) * chunk;
  const long long y1 = min(y0 + chunk, a.hi[1]);
  const unsigned mask = lane_mask<N>(x, a.lo[0], a.hi[0]);
  const bool loads = x <= a.hi[0];  // vector holds a node or the right halo: inside the row
  const T* __restrict__ in = a.in + a.lo[2] * a.plane + x;
  T* __restrict__ out = a.out + a.lo[2] * a.plane + x;
  const T* __restrict__ src = a.src ? a.src + a.lo[2] * a.plane + x : nullptr;
  const TypedWeights<T> w = a.w;

  T up[N], mid[N], next[G][N];
  if (loads) {
    load_vec(in + (y0 - 1) * a.pitch, up);
    load_vec(in + y0 * a.pitch, mid);
  }
  StatsAcc<T> mine;
  if constexpr (Stats) mine = stats_acc_identity<T>();
  for (long long y = y0; y < y1; y += G) {
#pragma unroll
    for (int g = 0; g < G; ++g)
      if (loads && y + g + 1 <= y1) load_vec(in + (y + g + 1) * a.pitch, next[g]);
#pragma unroll
    for (int g = 0; g < G; ++g) {
      if (y + g >= y1) break;  // uniform across the block
      const long long row = (y + g) * a.pitch;
      // x-neighbours: the adjacent lanes' edge values; the warp's ends read the cache.
      T left = __shfl_up_sync(0xffffffffu, mid[N - 1], 1);
      T right = __shfl_down_sync(0xffffffffu, mid[0], 1);
      if (loads && lane == 0) left = in[row - 1];
      if (loads && lane == 31 && x + N <= a.hi[0]) right = in[row + N];
      if (mask) {
        T v[N];
#pragma unroll
        for (int e = 0; e < N; ++e) {
          const T xm = e == 0 ? left : mid[e - 1];
          const T xp = e == N - 1 ? right : mid[e + 1];
          const T s = src && (mask >> e & 1) ? w.source_scale * src[row + e] : w.source;
          v[e] = w.center * mid[e] + w.fx * (xm + xp) + w.fy * (up[e] + next[g][e]) + s;
        }
        if constexpr (Stats) stats_add_vec(mine, mid, v, mask);
        store_vec(out + row, v, mask);
      }
#pragma unroll
      for (int e = 0; e < N; ++e) {
        up[e] = mid[e];
        mid[e] = next[g][e];
      }
    }
  }
  if constexpr (Stats) block_stats_finish<BX, 1>(mine, partials);
}

template <typename T, int BX, int G>
dim3 rows2d_grid(const DevArgs<T>& a, int sm_count, bool stats) {
  constexpr int N = Vec16<T>::n;
  const long long xa = a.lo[0] - a.lo[0] % N;
  const long long gx = ceil_div(a.hi[0] - xa, static_cast<long long>(BX) * N);
  const long long ny = a.hi[1] - a.lo[1];
  // 64-row chunks (2 halo rows re-read, 3%) where they fill the GPU: faster at 16384^2 than
  // the one-wave sizing the 3D march uses (82% vs 76-80% of copy on the H200;
  // docs/performance-history.md, "How the variants evolved", item 4). Where they would leave
  // SMs idle (a 1025^2 float grid is 2 x 16 blocks for 132 SMs) the chunks shrink, down to 8
  // rows, until the blocks fill one wave.
  const long long per_sm = stats ? resident_blocks<rows2d_kernel<T, BX, G, true>>(BX)
                                 : resident_blocks<rows2d_kernel<T, BX, G, false>>(BX);
  const long long capacity = per_sm * sm_count;
  long long chunks = ceil_div(ny, 64);
  if (gx * chunks < capacity) chunks = std::min(ceil_div(capacity, gx), ceil_div(ny, 8));
  chunks = std::max(chunks, 1LL);
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(ceil_div(ny, ceil_div(ny, chunks))),
              1);
}

template <typename T, int BX, int G>
void rows2d_launch(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  const long long chunk = ceil_div(a.hi[1] - a.lo[1], grid.y);
  if (partials)
    rows2d_kernel<T, BX, G, true><<<grid, BX, 0, s>>>(a, chunk, partials);
  else
    rows2d_kernel<T, BX, G, false><<<grid, BX, 0, s>>>(a, chunk, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BX, int G>
Variant<T> rows2d(const char* name) {
  return {name, &rows2d_grid<T, BX, G>, &rows2d_launch<T, BX, G>};
}

}  // namespace

template <typename T>
void add_rows2d_variants(std::vector<Variant<T>>& table) {
  // Names: rows<BX>g<G>, BX threads of 16-byte vectors, G rows loaded per step.
  table.push_back(rows2d<T, 128, 4>("rows128g4"));
  table.push_back(rows2d<T, 128, 8>("rows128g8"));
  table.push_back(rows2d<T, 256, 4>("rows256g4"));
  table.push_back(rows2d<T, 256, 2>("rows256g2"));
  table.push_back(rows2d<T, 512, 4>("rows512g4"));
  // Narrow blocks: more block columns on narrow grids (a 257-wide float row is 1 block of
  // rows128 but 3 of rows32).
  table.push_back(rows2d<T, 32, 4>("rows32g4"));
  table.push_back(rows2d<T, 64, 4>("rows64g4"));
}

template void add_rows2d_variants<float>(std::vector<Variant<float>>&);
template void add_rows2d_variants<double>(std::vector<Variant<double>>&);

}  // namespace fdsolve::cuda
