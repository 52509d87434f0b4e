// Two 2D 5-point sweeps in one pass over memory by row marching, for multigrid's smoothing
// (two pre- and two post-smoothing sweeps a level): each thread owns a column and walks down a
// chunk of rows, keeping three rows of u and of the first sweep in registers; each row step
// computes the first sweep at row r and the second at row r - 1, so u and the source are read
// once and the result written once (24 bytes a node for two sweeps in double, against 48 for two
// single sweeps). Unlike the tiles of tblock2d_kernel.cuh, built for eight sweeps, no node is
// recomputed but the block's two edge columns on each side and two rows per chunk.
// The kernel alone (launch and variant in stencil2d_march2.cu), so that the CPU emulation test
// (tests/emulated) compiles the same source.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "dev_args.cuh"

namespace fdsolve::cuda {

/// The kernel's hooks for the statistics of the first sweep's update (multigrid's probe fused
/// into its pre-smoothing; stencil2d_march2.cu's checked form reduces them with CUB). NoProbe:
/// none, so that the emulation test compiles the kernel without CUB.
template <typename T>
struct NoProbe {
  struct Acc {};
  using Sink = std::nullptr_t;
  __device__ static Acc start() { return {}; }
  __device__ static void add(Acc&, T, T) {}
  __device__ static void finish(const Acc&, Sink) {}
};

/// What the kernel adds to u as it reads it: nothing (a smoothing pass), or, with multigrid's
/// post-smoothing, the coarse correction interpolated to the node (coarse_correction.cuh), so that
/// the correction is never written to memory on its own. `at(x, y)` gives the value to add at box
/// node (x, y); nodes outside the box take none.
template <typename T>
struct NoCorrection {
  static constexpr bool kAdds = false;
  __device__ T at(long long, long long) const { return T(0); }
};

/// Block of BX threads, one column each, over BX - 4 output columns (the first sweep is valid
/// one column in from the block's edges, the second two) and `chunk` output rows. Shared memory
/// holds two rows of u and two of the first sweep (alternating by row parity) for the
/// x-neighbours: 4 * BX values, one barrier a row. Steps is 1 or 2 (one sweep: the first
/// sweep's rows are the output). Probe collects the first sweep's update at the nodes the block
/// writes (each box node once over the grid) and finishes with every thread of the block.
/// Correction is added to u's box nodes as they are read (NoCorrection: none).
template <typename T, int BX, typename Probe = NoProbe<T>, typename Correction = NoCorrection<T>>
__global__ void __launch_bounds__(BX)
    march2d_kernel(const StepArgs<T> a, const TypedWeights<T> w2, int steps, long long chunk,
                   const typename Probe::Sink sink, const Correction correction = {}) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* const rows_u = reinterpret_cast<T*>(smem);  // [2][BX]
  T* const rows_s = rows_u + 2 * BX;             // [2][BX]
  const int tx = threadIdx.x;
  const long long x = a.lo[0] - 2 + static_cast<long long>(blockIdx.x) * (BX - 4) + tx;
  const long long y0 = a.lo[1] + static_cast<long long>(blockIdx.y) * chunk;
  const long long y1 = min(y0 + chunk, a.hi[1]);
  const long long base = a.lo[2] * a.plane + x;
  // Nodes within one node of the box are read by its updates; nothing beyond is.
  const bool x_read = x >= a.lo[0] - 1 && x <= a.hi[0];
  const bool x_box = x >= a.lo[0] && x < a.hi[0];
  const bool first_ok = x_box && tx >= 1 && tx < BX - 1;   // x-neighbours in the block
  const bool second_ok = x_box && tx >= 2 && tx < BX - 2;  // the first sweep's too
  const TypedWeights<T> w = a.w;
  const auto load = [&](long long y) {
    if (!(x_read && y >= a.lo[1] - 1 && y <= a.hi[1])) return T(0);
    const T u = a.in[base + y * a.pitch];
    if constexpr (Correction::kAdds)
      if (x_box && y >= a.lo[1] && y < a.hi[1]) return u + correction.at(x, y);
    return u;
  };

  // The source field at row r (zero off the box and without a field: no sweep there reads
  // it); each sweep adds it times its factor, or its constant.
  const auto load_g = [&](long long r) {
    if (!(a.src && x_box && r >= a.lo[1] && r < a.hi[1])) return T(0);
    return a.src[base + r * a.pitch];
  };
  const auto source = [&](const TypedWeights<T>& weights, T field) {
    return a.src ? weights.source_scale * field : weights.source;
  };

  // Row r's step: the first sweep at r (rows y0 - 1 .. y1 for two sweeps: the second needs
  // the first one row beyond its own), the second at r - 1. Loads run a row ahead of their
  // use (u of row r + 2, g of row r + 1 are in flight while row r is computed): a thread's
  // row step is short, and with one load in flight the pass waited on memory latency.
  const long long first_row = steps == 2 ? y0 - 1 : y0;
  const long long last_row = steps == 2 ? y1 : y1 - 1;
  T u_up = load(first_row - 1), u_mid = load(first_row), u_down = load(first_row + 1);
  T g = load_g(first_row);
  T s_up = T(0), s_mid = T(0), g_mid = T(0);  // the first sweep and source, rows r - 2, r - 1
  typename Probe::Acc probe = Probe::start();
  for (long long r = first_row; r <= last_row; ++r) {
    const T u_next = load(r + 2), g_next = load_g(r + 1);
    const int slot = static_cast<int>(r & 1);
    rows_u[slot * BX + tx] = u_mid;
    // One barrier a row: it publishes row r of u, and row r - 1 of the first sweep stored
    // in the previous step; each row's slot is rewritten two steps later, after every
    // thread has passed the barrier between.
    __syncthreads();
    // Outside the box the first sweep leaves u as it is (Dirichlet nodes, rows beyond).
    T s = u_mid;
    if (first_ok && r >= a.lo[1] && r < a.hi[1])
      s = combine_5pt(u_mid, rows_u[slot * BX + tx - 1], rows_u[slot * BX + tx + 1], u_up, u_down,
                      w, source(w, g));
    if (second_ok && r >= y0 && r < y1) Probe::add(probe, u_mid, s);
    if (steps == 1) {
      if (second_ok && r >= y0 && r < y1) a.out[base + r * a.pitch] = s;
    } else {
      const int above = slot ^ 1;  // row r - 1's slot
      if (second_ok && r - 1 >= y0)
        a.out[base + (r - 1) * a.pitch] = combine_5pt(
            s_mid, rows_s[above * BX + tx - 1], rows_s[above * BX + tx + 1], s_up, s, w2,
            source(w2, g_mid));
      rows_s[slot * BX + tx] = s;
    }
    u_up = u_mid;
    u_mid = u_down;
    u_down = u_next;
    s_up = s_mid;
    s_mid = s;
    g_mid = g;
    g = g_next;
  }
  Probe::finish(probe, sink);
}

/// The launch grid of march2d_kernel<T, BX>: columns of BX - 4 output nodes, rows in chunks
/// of `chunk` (at least 16: each chunk reloads two rows above and below it).
template <int BX, typename T>
dim3 march2d_grid(const StepArgs<T>& a, long long chunk) {
  const long long nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1];
  return dim3(static_cast<unsigned>((nx + BX - 5) / (BX - 4)),
              static_cast<unsigned>((ny + chunk - 1) / chunk), 1);
}

/// Shared memory of march2d_kernel<T, BX>.
template <typename T, int BX>
constexpr std::size_t march2d_shared_bytes() {
  return 4 * BX * sizeof(T);
}

}  // namespace fdsolve::cuda
