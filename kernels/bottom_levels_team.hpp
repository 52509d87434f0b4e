// The bottom levels' call (bottom_levels.hpp) run by a team of workers: every step is a pass
// over one level's nodes split by `team.rank()` / `team.size()`, ended by `team.sync()` so that
// the next pass reads what this one wrote. The CPU runs it with a team of one, CUDA with one
// thread block; `team.cg()` is the team bottom_cg.hpp runs with (CUDA: the bottom solve's own
// 256-thread team, so that its reductions add in the order of Backend::bottom_solve).
//
// Each pass computes what the backend operation of the level-by-level cycles computes, node
// by node with the same functions: the sweeps update_5pt / update_3d (the CPU's 5- and
// 7-point sweeps and CUDA's "plain" variant), the transfers restrict_node /
// restrict_ratio_node / restrict_residual_node / prolong_node / prolong_ratio_node, the
// halo fill fill_ghost's values.
#pragma once

#include "bottom_levels.hpp"

namespace fdsolve {

/// Halo node t (0 <= t < halo_nodes) of a level of `F`'s node counts: the two halo planes
/// beyond z (3D), then per plane the two halo rows beyond y, then per row the two x ghosts.
FDSOLVE_HOST_DEVICE int halo_nodes(const FineFold& F) {
  const int p0 = int(F.n[0]) + 2, p1 = int(F.n[1]) + 2;
  const int planes = F.s.dims == 3 ? 2 * p0 * p1 : 0;
  return planes + int(F.n[2]) * (2 * p0 + 2 * int(F.n[1]));
}

FDSOLVE_HOST_DEVICE void halo_node(const FineFold& F, int t, index_t& i, index_t& j, index_t& k) {
  const int n0 = int(F.n[0]), n1 = int(F.n[1]), p0 = n0 + 2, p1 = int(F.n[1]) + 2;
  if (F.s.dims == 3) {
    if (t < 2 * p0 * p1) {
      k = t < p0 * p1 ? -1 : F.n[2];
      i = t % p0 - 1;
      j = (t % (p0 * p1)) / p0 - 1;
      return;
    }
    t -= 2 * p0 * p1;
  }
  const int per_plane = 2 * p0 + 2 * n1;
  k = t / per_plane;
  t %= per_plane;
  if (t < 2 * p0) {
    j = t < p0 ? -1 : n1;
    i = t % p0 - 1;
    return;
  }
  t -= 2 * p0;
  j = t / 2;
  i = t % 2 == 0 ? -1 : n0;
}

/// The homogeneous halo fill of a level (StencilHierarchy::fill_homogeneous) in one pass. The axis-by-
/// axis fill writes a ghost in the pass of the last axis on which it lies outside, when that
/// face has a rule, copying the node whose coordinates fold back on every axis with a rule
/// (earlier passes have filled the ghosts it reads): the same copy, from a node this pass never
/// writes, so no pass waits for another.
template <typename T, typename Team>
FDSOLVE_HOST_DEVICE void fill_level(const FineFold& F, T* u, Team& team) {
  const int count = halo_nodes(F);
  for (int t = team.rank(); t < count; t += team.size()) {
    index_t i, j, k;
    halo_node(F, t, i, j, k);
    // The rule of the last axis the ghost lies beyond (z, then y, then x).
    const auto rule = [&](int axis, index_t at) {
      return at < 0 ? F.lo[axis] : at >= F.n[axis] ? F.hi[axis] : -1;
    };
    int r = F.s.dims == 3 ? rule(2, k) : -1;
    if (r < 0) r = rule(1, j);
    if (r < 0) r = rule(0, i);
    if (r == 0) continue;  // no rule on that face: the fill leaves the ghost
    const index_t c = F.s.dims == 3 ? F.fold(2, k) : 0;
    u[F.s.at(i, j, k)] = u[F.s.at(F.fold(0, i), F.fold(1, j), c)];
  }
  team.sync();
}

/// One sweep of level L's box: out = w applied to `in` plus g (a smoothing or residual sweep).
template <int Points, typename T, typename Team>
FDSOLVE_HOST_DEVICE void sweep_level(const LevelPlain<T>& L, const TypedWeights<T>& w, const T* in,
                                     T* out, Team& team) {
  const int cells = L.cells();
  for (int n = team.rank(); n < cells; n += team.size()) {
    index_t i, j, k;
    L.node(n, i, j, k);
    const index_t c = L.F.s.at(i, j, k);
    if constexpr (Points == 5)
      out[c] = update_5pt(in, c, L.F.s.pitch, w, w.source_scale * L.g[c]);
    else
      out[c] = update_3d<Points>(in, c, L.F.s.pitch, L.F.s.plane, w, w.source_scale * L.g[c]);
  }
  team.sync();
}

/// The residual of fine level F's field u restricted onto coarse level C's g (u's halo
/// filled): fused, or swept into `scratch`, its halo filled and restricted.
template <int Points, typename T, typename Team>
FDSOLVE_HOST_DEVICE void restrict_level(const LevelPlain<T>& F, const LevelPlain<T>& C, const T* u,
                                        T* scratch, Team& team) {
  const int cells = C.cells();
  if (C.fused) {
    for (int n = team.rank(); n < cells; n += team.size()) {
      index_t I, J, K;
      C.node(n, I, J, K);
      C.g[C.F.s.at(I, J, K)] =
          restrict_residual_node<Points>(u, F.g, T(0), F.F, F.residual, I, J, K, C.scale);
    }
    team.sync();
    return;
  }
  sweep_level<Points>(F, F.residual, u, scratch, team);
  fill_level(F.F, scratch, team);
  for (int n = team.rank(); n < cells; n += team.size()) {
    index_t I, J, K;
    C.node(n, I, J, K);
    C.g[C.F.s.at(I, J, K)] = C.halves
                                 ? restrict_node(scratch, F.F.s, I, J, K, C.scale)
                                 : restrict_ratio_node(scratch, F.F.s, C.ratio, I, J, K, C.scale);
  }
  team.sync();
}

/// Adds the interpolation of coarse level C's correction `e` (halo filled) to fine level F's u.
template <typename T, typename Team>
FDSOLVE_HOST_DEVICE void correct_level(const LevelPlain<T>& F, const LevelPlain<T>& C, const T* e,
                                       T* u, Team& team) {
  const int cells = F.cells();
  for (int n = team.rank(); n < cells; n += team.size()) {
    index_t i, j, k;
    F.node(n, i, j, k);
    u[F.F.s.at(i, j, k)] +=
        C.halves ? prolong_node(e, C.F.s, i, j, k) : prolong_ratio_node(e, C.F.s, C.ratio, i, j, k);
  }
  team.sync();
}

template <typename T, typename Team>
FDSOLVE_HOST_DEVICE void zero_level(const LevelPlain<T>& L, T* u, Team& team) {
  for (index_t e = team.rank(); e < L.size; e += team.size()) u[e] = T(0);
  team.sync();
}

/// The whole call: the steps of LevelWalk, each level's correction in x or next as its sweeps
/// have swapped them (bit l of `swapped`: next).
template <int Points, typename T, typename Team>
FDSOLVE_HOST_DEVICE void bottom_levels(const BottomLevelsPlain<T>& a, Team& team) {
  unsigned swapped = 0;
  const auto cur = [&](int l) { return (swapped >> l) & 1u ? a.level[l].next : a.level[l].x; };
  const auto spare = [&](int l) { return (swapped >> l) & 1u ? a.level[l].x : a.level[l].next; };
  // `steps`: the weights of each sweep of a smoothing step; null: L.smooth (bottom sweeps).
  const auto smooth = [&](int l, int sweeps, const TypedWeights<T>* steps) {
    const LevelPlain<T>& L = a.level[l];
    for (int s = 0; s < sweeps; ++s) {
      fill_level(L.F, cur(l), team);
      sweep_level<Points>(L, steps ? steps[s] : L.smooth, cur(l), spare(l), team);
      swapped ^= 1u << l;
    }
  };
  LevelWalk walk(a.count, a.w_cycle, a.fresh);
  LevelStep step;
  int l;
  bool fresh;
  while (walk.next(step, l, fresh)) {
    const LevelPlain<T>& L = a.level[l];
    if (step == LevelStep::Down) {
      if (fresh) zero_level(L, cur(l), team);
      smooth(l, a.pre_smooth, a.stepped ? L.pre : nullptr);
      fill_level(L.F, cur(l), team);
      restrict_level<Points>(L, a.level[l + 1], cur(l), spare(l), team);
    } else if (step == LevelStep::Bottom) {
      if (fresh) zero_level(L, cur(l), team);
      if (a.cg) {
        auto cg_team = team.cg();
        bottom_cg(a.bottom, cg_team);  // the coarsest never sweeps: its x is a.bottom.x
      } else {
        smooth(l, a.bottom_sweeps, nullptr);
      }
    } else {
      fill_level(a.level[l + 1].F, cur(l + 1), team);
      correct_level(L, a.level[l + 1], cur(l + 1), cur(l), team);
      smooth(l, a.post_smooth, a.stepped ? L.post : nullptr);
    }
  }
}

}  // namespace fdsolve
