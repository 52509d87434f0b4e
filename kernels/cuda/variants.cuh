// The CUDA kernel variants behind the backend: each is a name, a grid for a given sweep, and a
// launcher, collected in per-dimension tables that the backend indexes by KernelId.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "coarse_correction.cuh"
#include "cuda_check.cuh"
#include "march_chunks.hpp"
#include "sweep_common.cuh"

namespace fdsolve::cuda {

/// Launches one sweep on `stream` over `grid`; with a sink (checked sweep) each block also stores
/// its StatsPartial and the last block stores the fixed-order total.
template <typename T>
using LaunchFn = void (*)(const DevArgs<T>& args, dim3 grid, StatsSink partials,
                          cudaStream_t stream);
/// The grid a variant launches for a sweep, checked (`stats`) or not; its block count sizes the
/// partials buffer.
template <typename T>
using GridFn = dim3 (*)(const DevArgs<T>& args, int sm_count, bool stats);

template <typename T>
struct Variant {
  const char* name;
  GridFn<T> grid;
  LaunchFn<T> launch;
  /// Whether the sweep writes DevArgs::xg's ghosts itself (checked or not); null: never. Else
  /// the backend fills them after the sweep.
  bool (*writes_x_ghosts)(const DevArgs<T>& args, bool stats) = nullptr;
};

/// writes_x_ghosts of the variants that always do.
template <typename T>
bool always_writes_x_ghosts(const DevArgs<T>&, bool) {
  return true;
}

// Each .cu file contributes its variants in bench order.
template <typename T>
void add_plain_variants(int dims, std::vector<Variant<T>>& table);
template <typename T>
void add_tile2d_variants(std::vector<Variant<T>>& table);
template <typename T>
void add_rows2d_variants(std::vector<Variant<T>>& table);
template <typename T>
void add_vmarch3d_variants(std::vector<Variant<T>>& table);
template <typename T>
void add_march3d_variants(std::vector<Variant<T>>& table);

/// A temporally blocked variant: one launch advances `steps` (1..max_steps) sweeps from a.in
/// into a.out (a.in is only read). `sm_count` sizes the launch.
template <typename T>
struct StepVariant {
  const char* name;
  int max_steps;
  void (*launch)(const DevArgs<T>& a, int steps, int sm_count, cudaStream_t stream);
  /// The checked form, or null: the same sweeps, each block also storing the statistics of the
  /// first sweep's update at its nodes into `sink` (as a checked sweep's blocks do).
  void (*launch_checked)(const DevArgs<T>& a, int steps, int sm_count, StatsSink sink,
                         cudaStream_t stream) = nullptr;
  /// The blocks of a launch, which the checked form's partials need.
  long long (*blocks)(const DevArgs<T>& a, int sm_count) = nullptr;
  /// The corrected form, or null: the same sweeps from a.in with multigrid's coarse correction
  /// added to a.in's box nodes as they are read (a.in itself unchanged): prolong_add and the
  /// post-smoothing in one pass.
  void (*launch_corrected)(const DevArgs<T>& a, int steps, const CoarseCorrection<T>& correction,
                           int sm_count, cudaStream_t stream) = nullptr;
  /// Whether a two-sweep pass runs its second sweep with DevArgs::w2 (else w for both).
  bool two_weights = false;
};

template <typename T>
void add_tblock2d_variants(std::vector<StepVariant<T>>& table);
template <typename T>
void add_tblock3d_variants(std::vector<StepVariant<T>>& table);
template <typename T>
void add_march2d_variants(std::vector<StepVariant<T>>& table);

/// Raises a kernel's dynamic shared-memory limit to `bytes` (above the 48 KB default) once per
/// kernel and size class; a no-op below the default.
template <auto Kernel>
void allow_shared_bytes(std::size_t bytes) {
  static std::size_t allowed = 48 * 1024;
  if (bytes <= allowed) return;
  FDSOLVE_CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  allowed = bytes;
}

/// Reduces `count` partials at `a` in a fixed order (fixed blocks, fixed thread-to-element
/// assignment), ping-ponging through `b`; returns the buffer whose element 0 holds the total.
/// Used for grids too large for one last block to reduce (see kFusedStatsMaxBlocks).
StatsPartial* reduce_partials(StatsPartial* a, StatsPartial* b, long long count,
                              cudaStream_t stream);
/// Elements the second buffer of reduce_partials needs for `count` partials.
long long reduce_scratch_size(long long count);

/// ceil(a / b) for positive values.
inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

/// Blocks of `Kernel` (with `threads` threads) resident per SM, asked once per kernel.
template <auto Kernel>
int resident_blocks(int threads) {
  static const int blocks = [&] {
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, Kernel, threads, 0) != cudaSuccess) {
      cudaGetLastError();
      n = 1;
    }
    return n > 0 ? n : 1;
  }();
  return blocks;
}

/// Every sweep variant, 2D into tables[0] and 3D into tables[1] (host tables only: what the
/// backend launches and what `check` lists without a backend; sweep_catalog.cu).
template <typename T>
void add_sweep_variants(std::vector<Variant<T>> (&tables)[2]);
/// The default sweep variant for 2 or 3 dimensions (the measured best).
const char* default_sweep_variant(int dims);
/// The CUDA driver's version, "13.0": part of a device's identity in the tune cache.
std::string driver_version_text();

}  // namespace fdsolve::cuda
