// 3D 7/19/27-point temporal blocking by a wavefront in z: each block owns an overlapped x-y
// tile (its output tile plus k nodes on every side) and marches through z; at input plane t,
// sweep s computes plane t-s from sweep s-1's planes t-s-1 .. t-s+1, kept in a ring of three
// shared-memory planes per sweep, and sweep k's plane goes to memory. One pass over memory
// runs k sweeps; each node's arithmetic is stencil_3d's, so the result is bit-identical to k
// single sweeps of the plain kernel.
#include "variants.cuh"
#include "vector_access.cuh"

namespace fdsolve::cuda {
namespace {

/// Block 32 x TY threads; thread (tx, ty) owns the 16-byte vector at tile column tx*N of tile
/// row ty. Shared memory: sweeps 0..k-1, three plane slots each, every slot (TY+2) rows of RS
/// values (a pad row above and below, N pad values left and right, so that the tile's edge
/// threads read in bounds; what they read there is never used by a valid node).
template <typename T, int TY, int Points>
__global__ void __launch_bounds__(32 * TY)
    tblock3d_kernel(const DevArgs<T> a, int steps, long long chunk) {
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
  const bool readable = x + N - 1 >= a.lo[0] - 1 && x <= a.hi[0] && y >= a.lo[1] - 1 &&
                        y <= a.hi[1];
  // Output lanes: the tile's inner part, in the box.
  const unsigned out_mask =
      ty >= k && ty < TY - k ? box & lane_mask<N>(tx * N, kx, TW - kx) : 0u;
  const long long xy = y * a.pitch + x;
  const int t_off = (ty + 1) * RS + N + tx * N;
  const TypedWeights<T> w = a.w;
  const auto slot = [&](int stage, long long p) {
    const int m = static_cast<int>(((p % 3) + 3) % 3);
    return sh + (stage * 3 + m) * PL + t_off;
  };

  const long long t_begin = z0 - k, t_end = z1 + k;  // input planes of this chunk
  auto load = [&](long long p, T (&v)[N]) {
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
          for (int dy = -1; dy <= 1; ++dy) shared_row(slot(s - 1, p + dz) + dy * RS, r[dz + 1][dy + 1]);
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
            const T src = a.src ? a.src[p * a.plane + xy + e] : w.source;
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

template <typename T, int TY, int Points>
void tblock3d_launch_points(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  constexpr int N = Vec16<T>::n;
  constexpr int TW = 32 * N;
  constexpr int PL = (TY + 2) * (TW + 2 * N);
  const int kx = (steps + N - 1) / N * N;
  const long long xa = a.lo[0] - a.lo[0] % N;
  const long long gx = ceil_div(a.hi[0] - xa, TW - 2 * kx);
  const long long gy = ceil_div(a.hi[1] - a.lo[1], TY - 2 * steps);
  const long long nz = a.hi[2] - a.lo[2];
  const std::size_t bytes = sizeof(T) * 3 * PL * static_cast<std::size_t>(steps);
  constexpr auto kernel = &tblock3d_kernel<T, TY, Points>;
  allow_shared_bytes<kernel>(bytes);
  // Resident blocks per SM for each step count (the shared memory grows with it), asked once.
  static int resident[17] = {};
  int& per_sm = resident[steps];
  if (per_sm == 0) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * TY, bytes) !=
        cudaSuccess) {
      cudaGetLastError();
      per_sm = 1;
    }
    per_sm = std::max(per_sm, 1);
  }
  // One wave of blocks, z chunks of at least 4k planes (each chunk re-reads 2k planes).
  const long long capacity = static_cast<long long>(per_sm) * sm_count;
  long long chunks = std::max(1LL, capacity / std::max(1LL, gx * gy));
  chunks = std::min(chunks, std::max(1LL, nz / (4LL * steps)));
  const long long chunk = ceil_div(nz, chunks);
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy),
                  static_cast<unsigned>(ceil_div(nz, chunk)));
  kernel<<<grid, dim3(32, TY), bytes, stream>>>(a, steps, chunk);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int TY>
void tblock3d_launch(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream) {
  switch (a.points) {
    case 7:
      return tblock3d_launch_points<T, TY, 7>(a, steps, sm_count, stream);
    case 19:
      return tblock3d_launch_points<T, TY, 19>(a, steps, sm_count, stream);
    default:
      return tblock3d_launch_points<T, TY, 27>(a, steps, sm_count, stream);
  }
}

}  // namespace

template <typename T>
void add_tblock3d_variants(std::vector<StepVariant<T>>& table) {
  // Names: tb3d<TY>, a tile of 32 vectors by TY rows; at most 4 sweeps per pass (the output
  // tile keeps TY-8 rows, and four sweeps' rings of a 32-row tile fill the shared memory).
  table.push_back({"tb3d16", 4, &tblock3d_launch<T, 16>});
  table.push_back({"tb3d32", 4, &tblock3d_launch<T, 32>});
}

template void add_tblock3d_variants<float>(std::vector<StepVariant<float>>&);
template void add_tblock3d_variants<double>(std::vector<StepVariant<double>>&);

}  // namespace fdsolve::cuda
