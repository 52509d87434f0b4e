// One sweep as CUDA kernel arguments, apart from the statistics machinery so that kernels
// needing nothing else (the temporally blocked ones) can be compiled for the CPU emulation
// test as well (tests/emulated).
#pragma once

#include "ghost_rule.hpp"
#include "point_update.hpp"

namespace fdsolve::cuda {

/// SweepArgs::x_ghosts for the device: the x faces whose ghosts in `out` the sweep writes.
template <typename T>
struct XGhosts {
  bool any = false;
  GhostRule rule[2] = {GhostRule::None, GhostRule::None};  // x_min, x_max
  T offset[2] = {T(0), T(0)};
  const T* offsets[2] = {nullptr, nullptr};  // per face node, HaloAxis::face_index order
  long long nx = 0;          // owned nodes along x
  long long face_pitch = 0;  // ny + 2: a row of the per-node offsets
  long long q_halo = 0;      // 1 in 3D (the offsets span z's halo), 0 in 2D
};

/// One sweep as kernel arguments: `in`, `out` and `src` already point at owned node (0,0,0),
/// so node (i, j, k) is at k*plane + j*pitch + i (negative for the halo). What the temporally
/// blocked kernels take: given the whole DevArgs (x ghosts included, which they never read),
/// ptxas spilled 112 bytes in the 2D float tb128x128 kernel, which halved its speed.
template <typename T>
struct StepArgs {
  const T* __restrict__ in;
  T* __restrict__ out;
  const T* __restrict__ src;  // source field or null
  long long pitch, plane;
  long long lo[3], hi[3];  // the update box, half open
  TypedWeights<T> w;
  int points;  // 5, 7, 19 or 27
};

/// A single sweep's arguments: the step's and the x-face ghosts it writes.
template <typename T>
struct DevArgs : StepArgs<T> {
  XGhosts<T> xg;
  TypedWeights<T> w2;  // a two-sweep pass's second sweep (SweepArgs::second_weights, else w)
};

}  // namespace fdsolve::cuda
