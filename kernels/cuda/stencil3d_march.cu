// 3D 27-point sweep (7 and 19 as weight subsets) by an overlapped x-y tile that marches through
// z: a plane enters shared memory once, and its in-plane sums serve all three output planes.
#include <algorithm>

#include "cuda_check.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {
namespace {

/// Block BX x BY threads, one z column each, over output planes [z0, z0 + chunk). For each input
/// plane p the thread forms, from the 3x3 neighbourhood in shared memory, the centre C, the
/// x-pair X, the y-pair Y and the 4 diagonals D, and from them
///   R_p = center*C + fx*X + fy*Y + edge*D     (what plane p gives output plane p)
///   Q_p = fz*C + edge*(X+Y) + corner*D        (what plane p gives output planes p-1 and p+1)
/// so u'_p = R_p + Q_{p-1} + Q_{p+1} + s. U planes are staged per barrier, U loads in flight.
template <typename T, int BX, int BY, int U, bool Stats>
__global__ void __launch_bounds__(BX* BY)
    march3d_kernel(const DevArgs<T> a, long long chunk, const StatsSink partials) {
  constexpr int W = BX + 2;
  constexpr int H = BY + 2;
  __shared__ T planes[U][H * W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long x0 = a.lo[0] + static_cast<long long>(blockIdx.x) * BX;
  const long long y0 = a.lo[1] + static_cast<long long>(blockIdx.y) * BY;
  const long long z0 = a.lo[2] + static_cast<long long>(blockIdx.z) * chunk;
  const long long z1 = min(z0 + chunk, a.hi[2]);  // output planes [z0, z1)
  const long long x = x0 + tx, y = y0 + ty;
  const bool active = x < a.hi[0] && y < a.hi[1];
  const TypedWeights<T> w = a.w;
  const int t = (ty + 1) * W + tx + 1;  // this thread's node in a staged plane

  T q_prev2 = T(0), q_prev = T(0), r_prev = T(0), u_prev = T(0);  // Q_{p-2}, Q_{p-1}, R_{p-1}
  StatsAcc<T> mine;
  if constexpr (Stats) mine = stats_acc_identity<T>();

  for (long long base = z0 - 1; base <= z1; base += U) {
    __syncthreads();  // the previous group's planes are no longer read
#pragma unroll
    for (int q = 0; q < U; ++q) {
      const long long p = base + q;
      if (p <= z1) {
        const T* __restrict__ plane = a.in + p * a.plane;
#pragma unroll
        for (int r0 = 0; r0 < H; r0 += BY) {
          const int r = r0 + ty;
          const long long yy = y0 - 1 + r;
          if (r < H && yy <= a.hi[1]) {
            const T* row = plane + yy * a.pitch;
            if (x <= a.hi[0]) planes[q][r * W + tx + 1] = __ldg(row + x);
            if (tx == 0) planes[q][r * W] = __ldg(row + x0 - 1);
            if (tx == 1 && x0 + BX <= a.hi[0]) planes[q][r * W + BX + 1] = __ldg(row + x0 + BX);
          }
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < U; ++q) {
      const long long p = base + q;
      if (p <= z1 && active) {
        const T* s = planes[q];
        const T c = s[t];
        const T xs = s[t - 1] + s[t + 1];
        const T ys = s[t - W] + s[t + W];
        const T ds = (s[t - W - 1] + s[t - W + 1]) + (s[t + W - 1] + s[t + W + 1]);
        const T r_p = w.center * c + w.fx * xs + w.fy * ys + w.edge * ds;
        const T q_p = w.fz * c + w.edge * (xs + ys) + w.corner * ds;
        if (p - 1 >= z0) {  // output plane p-1 is complete
          const long long o = (p - 1) * a.plane + y * a.pitch + x;
          const T src = a.src ? w.source_scale * a.src[o] : w.source;
          const T v = r_prev + q_prev2 + q_p + src;
          a.out[o] = v;
          if constexpr (Stats) stats_add(mine, u_prev, v);
        }
        q_prev2 = q_prev;
        q_prev = q_p;
        r_prev = r_p;
        u_prev = c;
      }
    }
  }
  if constexpr (Stats) block_stats_finish<BX, BY>(mine, partials);
}

/// Output planes per block: long chunks re-read fewer boundary planes, short ones give enough
/// blocks to fill every SM a few times over (about 16 blocks of 256 threads per SM in all).
long long chunk_for(long long nz, long long xy_tiles, int sm_count) {
  const long long want_blocks = 16LL * sm_count;
  const long long chunks = std::max(1LL, std::min(nz, ceil_div(want_blocks, xy_tiles)));
  const long long chunk = ceil_div(nz, chunks);
  return std::max(chunk, std::min(nz, 32LL));
}

template <typename T, int BX, int BY>
dim3 march3d_grid(const DevArgs<T>& a, int sm_count, bool) {
  const long long gx = ceil_div(a.hi[0] - a.lo[0], BX), gy = ceil_div(a.hi[1] - a.lo[1], BY);
  const long long nz = a.hi[2] - a.lo[2];
  const long long chunk = chunk_for(nz, gx * gy, sm_count);
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy),
              static_cast<unsigned>(ceil_div(nz, chunk)));
}

template <typename T, int BX, int BY, int U>
void march3d_launch(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  const long long nz = a.hi[2] - a.lo[2];
  const long long chunk = ceil_div(nz, grid.z);
  const dim3 block(BX, BY);
  if (partials)
    march3d_kernel<T, BX, BY, U, true><<<grid, block, 0, s>>>(a, chunk, partials);
  else
    march3d_kernel<T, BX, BY, U, false><<<grid, block, 0, s>>>(a, chunk, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BX, int BY, int U>
Variant<T> march3d(const char* name) {
  return {name, &march3d_grid<T, BX, BY>, &march3d_launch<T, BX, BY, U>};
}

}  // namespace

template <typename T>
void add_march3d_variants(std::vector<Variant<T>>& table) {
  // Names: march<BX>x<BY>u<U>, block BX x BY threads, U planes staged per barrier.
  table.push_back(march3d<T, 32, 8, 1>("march32x8u1"));
  table.push_back(march3d<T, 32, 8, 2>("march32x8u2"));
  table.push_back(march3d<T, 32, 8, 4>("march32x8u4"));
  table.push_back(march3d<T, 32, 8, 8>("march32x8u8"));
  table.push_back(march3d<T, 64, 4, 4>("march64x4u4"));
  table.push_back(march3d<T, 64, 8, 4>("march64x8u4"));
  table.push_back(march3d<T, 128, 4, 2>("march128x4u2"));
}

template void add_march3d_variants<float>(std::vector<Variant<float>>&);
template void add_march3d_variants<double>(std::vector<Variant<double>>&);

}  // namespace fdsolve::cuda
