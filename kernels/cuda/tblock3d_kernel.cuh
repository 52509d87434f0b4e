// 3D 7/19/27-point temporal blocking by a wavefront in z: each block owns an overlapped x-y
// tile (its output tile plus k nodes on every side) and marches through z; at input plane t,
// sweep s computes plane t-s from sweep s-1's planes t-s-1 .. t-s+1, kept in a ring of three
// shared-memory planes per sweep, and sweep k's plane goes to memory. One pass over memory
// runs k sweeps; each node's arithmetic is stencil_3d's, so the result is bit-identical to k
// single sweeps of the plain kernel.
// The kernel alone (launch and variant table in stencil3d_tblock.cu), so that the CPU
// emulation test (tests/emulated) compiles the same source.
#pragma once

#include <cstddef>

#include "dev_args.cuh"
#include "vector_access.cuh"

namespace fdsolve::cuda {

/// Block 32 x TY threads; thread (tx, ty) owns the 16-byte vector at tile column tx*N of tile
/// row ty. Shared memory: sweeps 0..k-1, three plane slots each, every slot (TY+2) rows of RS
/// values (a pad row above and below, N pad values left and right, so that the tile's edge
/// threads read in bounds; what they read there is never used by a valid node).
template <typename T, int TY, int Points>
__global__ void __launch_bounds__(32 * TY)
    tblock3d_kernel(const StepArgs<T> a, int steps, long long chunk) {
  constexpr int N = Vec16<T>::n;
  constexpr int TW = 32 * N;
  constexpr int RS = TW + 2 * N;
  constexpr int PL = (TY + 2) * RS;
  constexpr unsigned kAll = (1u << N) - 1;
  extern __shared__ __align__(16) unsigned char smem[];
  T* sh = reinterpret_cast<T*>(smem);
  const int tx = threadIdx.x, ty = threadIdx.y, k = steps;
  const int kx = (k + N - 1) / N * N;  // x halo in whole vectors: loads stay 16-byte aligned
  const long long xa = a.lo[0] - a.lo[0] % N;
  const long long x = xa - kx + static_cast<long long>(blockIdx.x) * (TW - 2 * kx) + tx * N;
  const long long y = a.lo[1] - k + static_cast<long long>(blockIdx.y) * (TY - 2 * k) + ty;
  const long long z0 = a.lo[2] + static_cast<long long>(blockIdx.z) * chunk;
  const long long z1 = min(z0 + chunk, a.hi[2]);
  const bool y_box = y >= a.lo[1] && y < a.hi[1];
  const unsigned box = y_box ? lane_mask<N>(x, a.lo[0], a.hi[0]) : 0u;
  // Only nodes within one node of the box are ever read by its updates.
  const bool readable =
      x + N - 1 >= a.lo[0] - 1 && x <= a.hi[0] && y >= a.lo[1] - 1 && y <= a.hi[1];
  // Output lanes: the tile's inner part, in the box.
  const unsigned out_mask = ty >= k && ty < TY - k ? box & lane_mask<N>(tx * N, kx, TW - kx) : 0u;
  const long long xy = y * a.pitch + x;
  const int t_off = (ty + 1) * RS + N + tx * N;
  const TypedWeights<T> w = a.w;
  const auto slot = [&](int stage, long long p) {
    const int m = static_cast<int>(((p % 3) + 3) % 3);
    return sh + (stage * 3 + m) * PL + t_off;
  };

  const long long t_begin = z0 - k, t_end = z1 + k;  // input planes of this chunk
  auto load = [&](long long p, T(&v)[N]) {
    if (readable && p >= a.lo[2] - 1 && p <= a.hi[2]) {
      load_vec(a.in + p * a.plane + xy, v);
    } else {
#pragma unroll
      for (int e = 0; e < N; ++e) v[e] = T(0);
    }
  };
  T next[N];
  load(t_begin, next);
  for (long long t = t_begin; t < t_end; ++t) {
    store_vec(slot(0, t), next, kAll);
    if (t + 1 < t_end) load(t + 1, next);  // in flight while the sweeps below run
    __syncthreads();
    for (int s = 1; s <= k; ++s) {
      const long long p = t - s;
      // Sweep s at plane p needs sweep s-1 at p-1 .. p+1; the chunk's outputs need it from
      // z0-(k-s) on (uniform across the block).
      if (p >= t_begin + s) {
        T r[3][3][N + 2];  // sweep s-1 around this vector: [dz+1][dy+1][dx+1+e]
#pragma unroll
        for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
          for (int dy = -1; dy <= 1; ++dy)
            shared_row(slot(s - 1, p + dz) + dy * RS, r[dz + 1][dy + 1]);
        const bool plane_box = p >= a.lo[2] && p < a.hi[2];
        // Valid after sweep s: at least s nodes from the tile's x-y edges.
        const unsigned valid =
            plane_box && ty >= s && ty < TY - s ? box & lane_mask<N>(tx * N, s, TW - s) : 0u;
        T v[N];
#pragma unroll
        for (int e = 0; e < N; ++e) {
          if (valid >> e & 1u) {
            const auto at = [&r, e](int dx, int dy, int dz) -> T {
              return r[dz + 1][dy + 1][e + 1 + dx];
            };
            const T src = a.src ? w.source_scale * a.src[p * a.plane + xy + e] : w.source;
            v[e] = stencil_3d<Points>(at, w, src);
          } else {
            v[e] = r[1][1][e + 1];  // fixed node (or one no valid node reads)
          }
        }
        if (s < k)
          store_vec(slot(s, p), v, kAll);
        else if (p >= z0 && out_mask)
          store_vec(a.out + p * a.plane + xy, v, out_mask);
      }
      // The next sweep reads what this one stored; after the last, the next plane's store
      // overwrites a slot sweep 1 read (k == 1) or sweep k's reads of sweep k-1's slots must end
      // before sweep k-1 refills them, which the barrier after the next store already orders.
      if (s < k || k == 1) __syncthreads();
    }
  }
}

/// Shared memory of tblock3d_kernel<T, TY, ...> for `steps` sweeps: sweeps 0..steps-1, three
/// plane slots each.
template <typename T, int TY>
constexpr std::size_t tblock3d_shared_bytes(int steps) {
  constexpr int N = Vec16<T>::n;
  return sizeof(T) * 3 * (TY + 2) * (32 * N + 2 * N) * static_cast<std::size_t>(steps);
}

/// The launch grid of tblock3d_kernel<T, TY, ...> for `steps` sweeps and its z chunk: one block
/// per output tile ((32 N - 2 kx) x (TY - 2 steps) nodes) and z chunk, as many chunks as fill
/// `capacity` resident blocks once, each at least 4 steps planes long (a chunk re-reads 2 steps
/// planes).
template <typename T, int TY>
dim3 tblock3d_grid(const DevArgs<T>& a, int steps, long long capacity, long long& chunk) {
  constexpr int N = Vec16<T>::n;
  const long long kx = (steps + N - 1) / N * N;
  const long long xa = a.lo[0] - a.lo[0] % N;
  const long long ox = 32 * N - 2 * kx, oy = TY - 2 * steps;
  const long long gx = (a.hi[0] - xa + ox - 1) / ox, gy = (a.hi[1] - a.lo[1] + oy - 1) / oy;
  const long long nz = a.hi[2] - a.lo[2];
  long long chunks = capacity / (gx * gy > 0 ? gx * gy : 1);
  chunks = chunks < nz / (4LL * steps) ? chunks : nz / (4LL * steps);
  if (chunks < 1) chunks = 1;
  chunk = (nz + chunks - 1) / chunks;
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy),
              static_cast<unsigned>((nz + chunk - 1) / chunk));
}

}  // namespace fdsolve::cuda
