// 3D 27-point sweep (7/19 as weight subsets) marching through z with 16-byte vectors and the
// next plane's loads in flight while the current one is computed: the overlapped x-y tile of
// stencil3d_march.cu, software-pipelined so that memory never waits on a barrier.
#include <algorithm>

#include "cuda_check.cuh"
#include "variants.cuh"
#include "vector_access.cuh"

namespace fdsolve::cuda {
namespace {

/// One plane's share of a thread, held in registers between load and shared-memory store.
template <typename T>
struct Staged {
  T body[Vec16<T>::n];  // this thread's vector of its row
  T halo[Vec16<T>::n];  // threads ty < 2: the vector of row y0-1 (ty 0) or y0+BY (ty 1)
  T side;               // threads tid < 2*(BY+2): one left/right halo column value
};

/// What a thread carries from plane to plane: the partial sums of the planes below.
template <typename T>
struct ZState {
  static constexpr int N = Vec16<T>::n;
  T q_prev2[N], q_prev[N], r_prev[N], u_prev[N];
};

/// One thread's step of the march at input plane p: reads its vector and the 8 around it in
/// the plane tile at `s` (row stride RS), forms R_p and Q_p, and, when `emit`, stores output
/// plane p-1 at `out` (u'_{p-1} = R_{p-1} + Q_{p-2} + Q_p + s) and adds it to the stats; `out`
/// is node (x, y, p-1). With Ghosts, it also writes the row's x-face ghosts sourced from the
/// lanes `ghost_lanes` (x_ghost_lanes). Only the unchecked sweeps do: in the checked ones the
/// few extra registers cost a block per SM or spills (ptxas, sm_90), so those leave the ghosts
/// to the backend's fill after the sweep.
template <typename T, int RS, bool Stats, bool Ghosts>
__device__ __forceinline__ void march_step(const T* s, const TypedWeights<T>& w, T* out,
                                           const T* src, bool emit, unsigned mask, ZState<T>& z,
                                           StatsAcc<T>& mine, const XGhosts<T>& xg,
                                           unsigned ghost_lanes, long long y, long long p) {
  constexpr int N = Vec16<T>::n;
  T rm[N + 2], r0[N + 2], rp[N + 2];  // rows y-1, y, y+1 at x-1 .. x+N
  shared_row(s - RS, rm);
  shared_row(s, r0);
  shared_row(s + RS, rp);
  T v[N];
#pragma unroll
  for (int e = 0; e < N; ++e) {
    const T c = r0[e + 1];
    const T xs = r0[e] + r0[e + 2];
    const T ys = rm[e + 1] + rp[e + 1];
    const T ds = (rm[e] + rm[e + 2]) + (rp[e] + rp[e + 2]);
    const T r_p = w.center * c + w.fx * xs + w.fy * ys + w.edge * ds;
    const T q_p = w.fz * c + w.edge * (xs + ys) + w.corner * ds;
    const T sv = src && emit && (mask >> e & 1) ? w.source_scale * src[e] : w.source;
    v[e] = z.r_prev[e] + z.q_prev2[e] + q_p + sv;
    z.q_prev2[e] = z.q_prev[e];
    z.q_prev[e] = q_p;
    z.r_prev[e] = r_p;
  }
  if (emit) {
    if constexpr (Stats) stats_add_vec(mine, z.u_prev, v, mask);
    store_vec(out, v, mask);
    if constexpr (Ghosts)
      if (ghost_lanes != 0xFFu) write_x_ghosts<T, N>(xg, ghost_lanes, out, v, y, p - 1);
  }
#pragma unroll
  for (int e = 0; e < N; ++e) z.u_prev[e] = r0[e + 1];
}

/// Block 32 x BY threads over a tile 32*VEC wide and BY rows high, marching over output planes
/// [z0, z0 + chunk); P planes are prefetched into registers ahead of the one computed.
/// Arithmetic as in stencil3d_march.cu: u'_p = R_p + Q_{p-1} + Q_{p+1} + s.
/// (A 64-register cap on the stats instantiations spilled 28-84 bytes: vring is the capped one.)
/// Where a block of a vector march sits: tile origin (x0, y0), output planes [z0, z1), this
/// thread's first node (x, y) and the mask of its vector lanes inside the box. One definition
/// for vmarch and vring, which share the tile.
template <typename T, int BY>
struct MarchTile {
  long long x0, y0, z0, z1, x, y;
  unsigned mask;

  __device__ MarchTile(const DevArgs<T>& a, long long chunk) {
    constexpr int N = Vec16<T>::n;
    const long long xa = a.lo[0] - a.lo[0] % N;  // vectors start on 16-byte boundaries
    x0 = xa + static_cast<long long>(blockIdx.x) * 32 * N;
    y0 = a.lo[1] + static_cast<long long>(blockIdx.y) * BY;
    z0 = a.lo[2] + static_cast<long long>(blockIdx.z) * chunk;
    z1 = min(z0 + chunk, a.hi[2]);
    x = x0 + static_cast<long long>(threadIdx.x) * N;
    y = y0 + threadIdx.y;
    mask = y < a.hi[1] ? lane_mask<N>(x, a.lo[0], a.hi[0]) : 0u;
  }
};

/// Ghosts: the instantiation that writes the x-face ghosts, launched only for sweeps that have
/// some (a.xg.any), so that its extra registers never slow an all-Dirichlet sweep (ptxas, sm_90:
/// vmarch4p1 64 against 60 in float, still 8 blocks per SM; 70 against 64 in double, 7 blocks;
/// a 64-register cap on it spilled 24-32 bytes).
template <typename T, int BY, int P, bool Stats, bool Ghosts>
__global__ void __launch_bounds__(32 * BY)
    vmarch3d_kernel(const DevArgs<T> a, long long chunk, const StatsSink partials) {
  constexpr int N = Vec16<T>::n;
  constexpr int TW = 32 * N;      // tile width in nodes
  constexpr int RS = TW + 2 * N;  // shared row: pad, left halo at N-1, TW nodes, right halo
  __shared__ __align__(16) T sh[(BY + 2) * RS];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + 32 * ty;
  const MarchTile<T, BY> tile(a, chunk);
  const long long x0 = tile.x0, y0 = tile.y0, z0 = tile.z0, z1 = tile.z1, x = tile.x, y = tile.y;
  const unsigned mask = tile.mask;
  const TypedWeights<T> w = a.w;
  const unsigned ghost_lanes = Ghosts ? x_ghost_lanes<T, N>(a.xg, x, mask) : 0xFFu;

  // What this thread loads of every plane (fixed for the whole march).
  const bool body_ok = x <= a.hi[0] && y <= a.hi[1];
  const long long hy = ty == 0 ? y0 - 1 : y0 + BY;
  const bool halo_ok = ty < 2 && x <= a.hi[0] && hy <= a.hi[1];
  const int side_row = tid >> 1, side_right = tid & 1;
  const long long sx = side_right ? x0 + TW : x0 - 1;
  const bool side_ok = tid < 2 * (BY + 2) && y0 - 1 + side_row <= a.hi[1] && sx <= a.hi[0];
  const long long body_off = y * a.pitch + x, halo_off = hy * a.pitch + x;
  const long long side_off = (y0 - 1 + side_row) * a.pitch + sx;
  const int body_sh = (ty + 1) * RS + N + tx * N,
            halo_sh = (ty == 0 ? 0 : BY + 1) * RS + N + tx * N;
  const int side_sh = side_row * RS + (side_right ? N + TW : N - 1);

  auto load = [&](long long p, Staged<T>& s) {
    if (p > z1) return;
    const T* pl = a.in + p * a.plane;
    if (body_ok) load_vec(pl + body_off, s.body);
    if (halo_ok) load_vec(pl + halo_off, s.halo);
    if (side_ok) s.side = __ldg(pl + side_off);
  };
  auto stage = [&](const Staged<T>& s) {
    if (body_ok) store_vec(sh + body_sh, s.body, (1u << N) - 1);
    if (halo_ok) store_vec(sh + halo_sh, s.halo, (1u << N) - 1);
    if (side_ok) sh[side_sh] = s.side;
  };

  Staged<T> staged[P];
#pragma unroll
  for (int q = 0; q < P; ++q) load(z0 - 1 + q, staged[q]);

  ZState<T> zs;
#pragma unroll
  for (int e = 0; e < N; ++e) zs.q_prev2[e] = zs.q_prev[e] = zs.r_prev[e] = zs.u_prev[e] = T(0);
  StatsAcc<T> mine;
  if constexpr (Stats) mine = stats_acc_identity<T>();

  for (long long base = z0 - 1; base <= z1; base += P) {
#pragma unroll
    for (int q = 0; q < P; ++q) {
      const long long p = base + q;
      if (p > z1) break;  // uniform across the block
      __syncthreads();    // the previous plane is no longer read
      stage(staged[q]);
      __syncthreads();
      load(p + P, staged[q]);  // in flight while this plane is computed
      if (mask) {
        const bool emit = p - 1 >= z0;
        const long long o = (p - 1) * a.plane + y * a.pitch + x;
        march_step<T, RS, Stats, Ghosts>(sh + (ty + 1) * RS + N + tx * N, w, a.out + o,
                                         a.src ? a.src + o : nullptr, emit, mask, zs, mine, a.xg,
                                         ghost_lanes, y, p);
      }
    }
  }
  if constexpr (Stats) block_stats_finish<32, BY, const StatsAcc<T>&>(mine, partials);
}

/// Grid of a vector march: tiles of 32 vectors by BY rows, z cut into the chunks that keep the
/// resident slots (`per_sm` blocks on each of `sm_count` SMs) busiest (march_chunks.hpp).
template <typename T, int BY>
dim3 march_grid(const DevArgs<T>& a, int sm_count, int per_sm) {
  constexpr int N = Vec16<T>::n;
  const long long xa = a.lo[0] - a.lo[0] % N;
  const long long gx = ceil_div(a.hi[0] - xa, 32 * N), gy = ceil_div(a.hi[1] - a.lo[1], BY);
  const long long nz = a.hi[2] - a.lo[2];
  const long long chunks = chunk_count(nz, gx * gy, static_cast<long long>(per_sm) * sm_count);
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy),
              static_cast<unsigned>(ceil_div(nz, ceil_div(nz, chunks))));
}

template <typename T>
using MarchKernel = void (*)(DevArgs<T>, long long, StatsSink);

/// Launches the stats or the plain instantiation of a vector march on `grid`.
template <typename T, int BY>
void march_launch(MarchKernel<T> with_stats, MarchKernel<T> plain, const DevArgs<T>& a, dim3 grid,
                  StatsSink partials, cudaStream_t s) {
  const long long chunk = ceil_div(a.hi[2] - a.lo[2], grid.z);
  const dim3 block(32, BY);
  if (partials)
    with_stats<<<grid, block, 0, s>>>(a, chunk, partials);
  else
    plain<<<grid, block, 0, s>>>(a, chunk, nullptr);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T, int BY, int P>
dim3 vmarch3d_grid(const DevArgs<T>& a, int sm_count, bool stats) {
  constexpr int threads = 32 * BY;
  const int per_sm = stats       ? resident_blocks<vmarch3d_kernel<T, BY, P, true, false>>(threads)
                     : a.xg.any ? resident_blocks<vmarch3d_kernel<T, BY, P, false, true>>(threads)
                                : resident_blocks<vmarch3d_kernel<T, BY, P, false, false>>(threads);
  return march_grid<T, BY>(a, sm_count, per_sm);
}

template <typename T, int BY, int P>
void vmarch3d_launch(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  march_launch<T, BY>(&vmarch3d_kernel<T, BY, P, true, false>,
                      a.xg.any ? &vmarch3d_kernel<T, BY, P, false, true>
                               : &vmarch3d_kernel<T, BY, P, false, false>,
                      a, grid, partials, s);
}

/// The unchecked vector marches write the x ghosts (vmarch through its Ghosts instantiation).
template <typename T>
bool unchecked_writes_x_ghosts(const DevArgs<T>&, bool stats) {
  return !stats;
}

template <typename T, int BY, int P>
Variant<T> vmarch3d(const char* name) {
  return {name, &vmarch3d_grid<T, BY, P>, &vmarch3d_launch<T, BY, P>,
          &unchecked_writes_x_ghosts<T>};
}

// --- vring: the same march with the plane tiles in an S-stage shared-memory ring ------------

/// Asynchronous global-to-shared copies (sm_80+): the data skip the registers, so a thread can
/// keep S-1 planes in flight at no register cost.
__device__ __forceinline__ void cp_async16(void* dst, const void* src) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
}
template <int Bytes>
__device__ __forceinline__ void cp_async_small(void* dst, const void* src) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(Bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
/// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

/// Block 32 x BY over the vmarch tile; plane p+S-1 is copied into the ring while plane p is
/// computed, so each plane costs one wait and one barrier (vmarch: two barriers and the staged
/// registers). In-plane offsets are 32-bit (the launcher checks that a plane fits); the plane
/// base stays 64-bit. The register cap keeps 1024 threads per SM with or without stats.
template <typename T, int BY, int S, bool Stats>
__global__ void __launch_bounds__(32 * BY, 1024 / (32 * BY))
    vring3d_kernel(const DevArgs<T> a, long long chunk, const StatsSink partials) {
  static_assert(S >= 2, "a ring needs at least two stages");
  constexpr int N = Vec16<T>::n;
  constexpr int TW = 32 * N;      // tile width in nodes
  constexpr int RS = TW + 2 * N;  // shared row: pad, left halo at N-1, TW nodes, right halo
  constexpr int TILE = (BY + 2) * RS;
  __shared__ __align__(16) T sh[S * TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + 32 * ty;
  const MarchTile<T, BY> tile(a, chunk);
  const long long x0 = tile.x0, y0 = tile.y0, z0 = tile.z0, z1 = tile.z1, x = tile.x, y = tile.y;
  const unsigned mask = tile.mask;
  const TypedWeights<T> w = a.w;
  const unsigned ghost_lanes = Stats ? 0xFFu : x_ghost_lanes<T, N>(a.xg, x, mask);  // see march_step
  const int pitch = static_cast<int>(a.pitch);

  // What this thread copies of every plane (fixed for the whole march).
  const bool body_ok = x <= a.hi[0] && y <= a.hi[1];
  const long long hy = ty == 0 ? y0 - 1 : y0 + BY;
  const bool halo_ok = ty < 2 && x <= a.hi[0] && hy <= a.hi[1];
  const int side_row = tid >> 1, side_right = tid & 1;
  const long long sx = side_right ? x0 + TW : x0 - 1;
  const bool side_ok = tid < 2 * (BY + 2) && y0 - 1 + side_row <= a.hi[1] && sx <= a.hi[0];
  const int body_off = static_cast<int>(y) * pitch + static_cast<int>(x);
  const int halo_off = static_cast<int>(hy) * pitch + static_cast<int>(x);
  const int side_off = static_cast<int>(y0 - 1 + side_row) * pitch + static_cast<int>(sx);
  const int body_sh = (ty + 1) * RS + N + tx * N,
            halo_sh = (ty == 0 ? 0 : BY + 1) * RS + N + tx * N;
  const int side_sh = side_row * RS + (side_right ? N + TW : N - 1);

  // Every call commits one group, empty past the chunk, so that group counts stay uniform.
  auto issue = [&](long long p, int stage) {
    if (p <= z1) {
      const T* pl = a.in + p * a.plane;
      T* st = sh + stage * TILE;
      if (body_ok) cp_async16(st + body_sh, pl + body_off);
      if (halo_ok) cp_async16(st + halo_sh, pl + halo_off);
      if (side_ok) cp_async_small<sizeof(T)>(st + side_sh, pl + side_off);
    }
    cp_async_commit();
  };
#pragma unroll
  for (int q = 0; q < S - 1; ++q) issue(z0 - 1 + q, q);

  ZState<T> zs;
#pragma unroll
  for (int e = 0; e < N; ++e) zs.q_prev2[e] = zs.q_prev[e] = zs.r_prev[e] = zs.u_prev[e] = T(0);
  StatsAcc<T> mine;
  if constexpr (Stats) mine = stats_acc_identity<T>();
  const int t = (ty + 1) * RS + N + tx * N;
  const int out_off = static_cast<int>(y) * pitch + static_cast<int>(x);

  int stage = 0;  // ring slot of plane p
  for (long long p = z0 - 1; p <= z1; ++p) {
    cp_async_wait<S - 2>();  // this thread's copies of plane p have landed
    __syncthreads();         // everyone's have, and nobody still reads plane p-1's slot
    issue(p + S - 1, stage == 0 ? S - 1 : stage - 1);
    if (mask) {
      const long long ob = (p - 1) * a.plane;
      march_step<T, RS, Stats, !Stats>(sh + stage * TILE + t, w, a.out + ob + out_off,
                               a.src ? a.src + ob + out_off : nullptr, p - 1 >= z0, mask, zs, mine,
                               a.xg, ghost_lanes, y, p);
    }
    stage = stage == S - 1 ? 0 : stage + 1;
  }
  if constexpr (Stats) block_stats_finish<32, BY>(mine, partials);
}

/// 32-bit in-plane offsets wrap for planes of 2^31 elements (> 46000^2 nodes): such planes go
/// to the 64-bit vmarch kernel with the same tile (grid and launch alike).
constexpr long long kMaxPlane32 = (1LL << 31) - 1;

template <typename T, int BY, int S>
dim3 vring3d_grid(const DevArgs<T>& a, int sm_count, bool stats) {
  if (a.plane >= kMaxPlane32) return vmarch3d_grid<T, BY, 1>(a, sm_count, stats);
  return march_grid<T, BY>(a, sm_count,
                           stats ? resident_blocks<vring3d_kernel<T, BY, S, true>>(32 * BY)
                                 : resident_blocks<vring3d_kernel<T, BY, S, false>>(32 * BY));
}

template <typename T, int BY, int S>
void vring3d_launch(const DevArgs<T>& a, dim3 grid, StatsSink partials, cudaStream_t s) {
  if (a.plane >= kMaxPlane32) return vmarch3d_launch<T, BY, 1>(a, grid, partials, s);
  march_launch<T, BY>(&vring3d_kernel<T, BY, S, true>, &vring3d_kernel<T, BY, S, false>, a, grid,
                      partials, s);
}

template <typename T, int BY, int S>
Variant<T> vring3d(const char* name) {
  return {name, &vring3d_grid<T, BY, S>, &vring3d_launch<T, BY, S>, &unchecked_writes_x_ghosts<T>};
}

}  // namespace

template <typename T>
void add_vmarch3d_variants(std::vector<Variant<T>>& table) {
  // Names: vmarch<BY>p<P>: 32 x BY threads of 16-byte vectors, P planes prefetched.
  table.push_back(vmarch3d<T, 4, 1>("vmarch4p1"));
  table.push_back(vmarch3d<T, 8, 1>("vmarch8p1"));
  // Names: vring<BY>s<S>: the same tile, an S-stage cp.async ring in shared memory.
  table.push_back(vring3d<T, 4, 3>("vring4s3"));
  table.push_back(vring3d<T, 8, 3>("vring8s3"));
  table.push_back(vring3d<T, 4, 4>("vring4s4"));
  table.push_back(vring3d<T, 16, 3>("vring16s3"));
}

template void add_vmarch3d_variants<float>(std::vector<Variant<float>>&);
template void add_vmarch3d_variants<double>(std::vector<Variant<double>>&);

}  // namespace fdsolve::cuda
