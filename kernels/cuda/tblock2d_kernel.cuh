// 2D 5-point temporal blocking: each block loads an overlapped W x H tile (its output tile plus
// a halo of k nodes on every side) into shared memory once, runs k Jacobi sweeps on it, and
// writes the output tile after the k-th: one pass over memory for k sweeps. The valid part
// shrinks by one node per sweep, so after k sweeps the inner (W-2k) x (H-2k) nodes hold
// exactly what k single sweeps compute (combine_5pt, the same formula in the same order).
// The kernel alone (launch and variant table in stencil2d_tblock.cu), so that the CPU
// emulation test (tests/emulated) compiles the same source.
#pragma once

#include "dev_args.cuh"
#include "vector_access.cuh"

namespace fdsolve::cuda {

/// Block W x TY threads over a W x H tile, H = TY * R: thread (tx, ty) owns column tx, rows
/// ty*R .. ty*R+R-1, and keeps them in registers; shared memory holds the tile for the
/// neighbours' reads. Per sweep: update the owned rows in registers (the rows above and below
/// and the x-neighbours from shared memory), barrier, store them back, barrier.
template <typename T, int W, int TY, int R>
__global__ void __launch_bounds__(W* TY) tblock2d_kernel(const StepArgs<T> a, int steps) {
  constexpr int H = TY * R;
  static_assert(R <= 32, "the box mask has 32 bits");
  extern __shared__ __align__(16) unsigned char smem[];
  T* sh = reinterpret_cast<T*>(smem);
  const int tx = threadIdx.x, ty = threadIdx.y, k = steps;
  const int row0 = ty * R;
  const long long x = a.lo[0] - k + static_cast<long long>(blockIdx.x) * (W - 2 * k) + tx;
  const long long y0 = a.lo[1] - k + static_cast<long long>(blockIdx.y) * (H - 2 * k) + row0;
  const long long base = a.lo[2] * a.plane + x;  // 2D: plane 0
  const bool x_box = x >= a.lo[0] && x < a.hi[0];
  // Nodes within one node of the box are read by its updates; nothing beyond is.
  const bool x_read = x >= a.lo[0] - 1 && x <= a.hi[0];
  const TypedWeights<T> w = a.w;

  T col[R];
  unsigned box = 0;  // bit r: row r of this thread is a node of the update box
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const long long y = y0 + r;
    const bool read = x_read && y >= a.lo[1] - 1 && y <= a.hi[1];
    col[r] = read ? a.in[base + y * a.pitch] : T(0);
    if (x_box && y >= a.lo[1] && y < a.hi[1]) box |= 1u << r;
    sh[(row0 + r) * W + tx] = col[r];
  }
  __syncthreads();

  for (int s = 1; s <= k; ++s) {
    // Sweep s is valid at distance >= s from the tile's edge (its inputs were valid at s-1).
    const bool x_ok = tx >= s && tx < W - s;
    T prev = row0 > 0 ? sh[(row0 - 1) * W + tx] : T(0);  // old value of the row above
    const T below = row0 + R < H ? sh[(row0 + R) * W + tx] : T(0);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int row = row0 + r;
      const T old = col[r];
      const T next = r + 1 < R ? col[r + 1] : below;
      if (x_ok && row >= s && row < H - s && (box >> r & 1u)) {
        const T src = a.src ? w.source_scale * a.src[base + (y0 + r) * a.pitch] : w.source;
        col[r] = combine_5pt(old, sh[row * W + tx - 1], sh[row * W + tx + 1], prev, next, w, src);
      }
      prev = old;
    }
    if (s == k) break;
    __syncthreads();  // every thread has read the old tile
#pragma unroll
    for (int r = 0; r < R; ++r) sh[(row0 + r) * W + tx] = col[r];
    __syncthreads();
  }

  if (tx < k || tx >= W - k) return;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int row = row0 + r;
    if (row >= k && row < H - k && (box >> r & 1u)) a.out[base + (y0 + r) * a.pitch] = col[r];
  }
}

/// The launch grid of tblock2d_kernel<T, W, TY, R> for `steps` sweeps: one block per output
/// tile of (W - 2 steps) x (TY*R - 2 steps) nodes.
template <int W, int H, typename T>
dim3 tblock2d_grid(const DevArgs<T>& a, int steps) {
  const long long ox = W - 2 * steps, oy = H - 2 * steps;
  return dim3(static_cast<unsigned>((a.hi[0] - a.lo[0] + ox - 1) / ox),
              static_cast<unsigned>((a.hi[1] - a.lo[1] + oy - 1) / oy), 1);
}

}  // namespace fdsolve::cuda
