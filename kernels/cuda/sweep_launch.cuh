// What the backend hands a sweep kernel: SweepArgs as device arguments, and a checked sweep's
// total as SweepStats.
#pragma once

#include "variants.cuh"

namespace fdsolve::cuda {

/// The device arguments of sweep `s`: pointers at the layout's origin, strides, box, weights.
template <typename T>
DevArgs<T> device_args(const SweepArgs<T>& s) {
  DevArgs<T> a;
  a.in = s.in + s.layout.origin;
  a.out = s.out + s.layout.origin;
  a.src = s.source_field ? s.source_field + s.layout.origin : nullptr;
  a.pitch = s.layout.pitch;
  a.plane = s.layout.plane;
  for (int d = 0; d < 3; ++d) {
    a.lo[d] = s.box.lo[d];
    a.hi[d] = s.box.hi[d];
  }
  a.w = typed<T>(s.weights);
  a.w2 = typed<T>(s.second_weights ? *s.second_weights : s.weights);
  a.points = s.layout.dims == 2 ? 5 : s.weights.points;
  return a;
}

/// device_args with SweepArgs::x_ghosts where variant `v` writes them in this (checked or
/// unchecked) sweep itself.
template <typename T>
DevArgs<T> device_args(const SweepArgs<T>& s, const Variant<T>& v, bool stats) {
  DevArgs<T> a = device_args(s);
  if (!s.writes_x_ghosts() || !v.writes_x_ghosts || !v.writes_x_ghosts(a, stats)) return a;
  a.xg.any = true;
  for (int side = 0; side < 2; ++side) {
    a.xg.rule[side] = s.x_ghosts[side].rule;
    a.xg.offset[side] = s.x_ghosts[side].offset;
    a.xg.offsets[side] = s.x_ghosts[side].offsets;
  }
  a.xg.nx = s.layout.n[0];
  a.xg.face_pitch = s.layout.n[1] + 2;
  a.xg.q_halo = s.layout.dims == 3 ? 1 : 0;
  return a;
}

/// The statistics of a checked sweep over `cells` nodes from its reduced total `p`.
inline SweepStats stats_of(const StatsPartial& p, index_t cells) {
  SweepStats stats;
  stats.sum_sq = p.sum_sq;
  stats.max_abs = p.max_abs;
  stats.min = p.min;
  stats.max = p.max;
  stats.sum = p.sum;
  stats.count = cells;
  return stats;
}

}  // namespace fdsolve::cuda
