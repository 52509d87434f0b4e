// Multigrid's coarsest levels visited in one backend call: on the GPU a cycle's launches on the
// small levels cost more than their arithmetic (about 2 us a graph node against well under a
// microsecond of work on a level of a few thousand nodes), so CUDA runs every step of those
// levels as one launch of one thread block.
//
// The call visits the levels in the order of the cycle driver (solver/multigrid/cycle_driver.hpp),
// both taking it from one walk, LevelWalk (level_walk.hpp): pre-smoothing, the residual
// restricted to the next level, the same below (twice for W cycles), the bottom solve
// (bottom_cg.hpp, or sweeps), then the interpolated correction and post-smoothing on the way up.
// Each step is the operation StencilHierarchy's level by level (stencil_hierarchy.cpp), done as a
// pass over a level's nodes by a team of workers (bottom_levels_team.hpp) with the same per-node
// arithmetic (point_update.hpp, transfer.hpp, transfer_ratio.hpp). This file holds the arguments.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "bottom_cg.hpp"
#include "level_walk.hpp"
#include "transfer.hpp"

namespace fdsolve {

/// The most sweeps per smoothing step the call takes (its weights travel in the launch).
constexpr int kMaxStepSweeps = 4;

/// One level of the call: its fields (a correction, that field's second buffer and the
/// right-hand side g, all of `layout`), the nodes its sweeps update and its homogeneous face
/// rules (StencilHierarchy::fill_homogeneous's).
template <typename T>
struct BottomLevelArgs {
  T* x = nullptr;
  T* next = nullptr;
  T* g = nullptr;
  Layout layout;
  Box box;
  std::array<GhostRule, 6> rules{};
  StencilWeights smooth;    // weighted Jacobi (the source: g): the bottom sweeps
  StencilWeights residual;  // the scaled residual
  /// With BottomLevelsArgs::stepped, the sweeps of a pre- and of a post-smoothing step in order
  /// (Chebyshev steps differ per sweep); else every smoothing sweep is `smooth`.
  std::array<StencilWeights, kMaxStepSweeps> pre{}, post{};
  /// How g comes from the next finer level of the call (unused on the first level): where
  /// this level's nodes sit on it, the factor diag_fine / diag_this, and whether the residual
  /// is computed inside the restriction (Backend::restrict_residual) or swept first.
  TransferRatio ratio{};
  double scale = 1.0;
  bool fused = false;
};

/// The call: the levels from the first one visited to the coarsest, and the cycle's shape.
template <typename T>
struct BottomLevelsArgs {
  std::vector<BottomLevelArgs<T>> levels;
  bool fresh = true;  // start the first level's correction from zero
  int pre_smooth = 2;
  int post_smooth = 2;
  /// The levels' pre / post weights per sweep (at most kMaxStepSweeps sweeps a step).
  bool stepped = false;
  bool w_cycle = false;  // two coarse visits below every level but the one above the coarsest
  /// The coarsest level's solve: conjugate gradients (`bottom`, whose x is the coarsest
  /// level's x) or `bottom_sweeps` smoothing sweeps.
  bool cg = true;
  BottomSolveArgs<T> bottom;
  int bottom_sweeps = 0;
};

/// The most levels one call takes: its arguments travel by value in the launch (CUDA: 32 KiB
/// of parameters at most; 12 levels take 4.3 KiB in double). Coarsening halves an axis, so 12
/// levels of a few thousand nodes or fewer are more than any grid has.
constexpr int kMaxBottomLevels = 12;

/// One level as plain scalars for device code (Layout and Box hold std::arrays).
template <typename T>
struct LevelPlain {
  T *x, *next, *g;
  FineFold F;    // strides, node counts, and how an index beyond each face folds back
  index_t size;  // elements of each field, halo included
  index_t lo[3], extent[3];
  TypedWeights<T> smooth, residual;
  TypedWeights<T> pre[kMaxStepSweeps], post[kMaxStepSweeps];
  TransferRatio ratio;
  T scale;
  bool halves, fused;

  FDSOLVE_HOST_DEVICE int cells() const { return int(extent[0] * extent[1] * extent[2]); }
  /// Node n (0 <= n < cells()) of the box: x fastest.
  FDSOLVE_HOST_DEVICE void node(int n, index_t& i, index_t& j, index_t& k) const {
    const int ex = int(extent[0]), ey = int(extent[1]);
    i = lo[0] + n % ex;
    j = lo[1] + (n / ex) % ey;
    k = lo[2] + n / (ex * ey);
  }
};

template <typename T>
struct BottomLevelsPlain {
  int count;
  bool fresh, w_cycle, cg;
  int pre_smooth, post_smooth, bottom_sweeps;
  bool stepped;
  BottomPlain<T> bottom;
  LevelPlain<T> level[kMaxBottomLevels];
};

template <typename T>
BottomLevelsPlain<T> bottom_levels_plain(const BottomLevelsArgs<T>& a) {
  if (a.levels.size() < 2 || a.levels.size() > std::size_t(kMaxBottomLevels))
    throw std::invalid_argument("the bottom levels' call takes 2 to " +
                                std::to_string(kMaxBottomLevels) + " levels");
  if (a.stepped && (a.pre_smooth > kMaxStepSweeps || a.post_smooth > kMaxStepSweeps))
    throw std::invalid_argument("the bottom levels' call takes at most " +
                                std::to_string(kMaxStepSweeps) + " sweeps per smoothing step");
  BottomLevelsPlain<T> p{};
  p.count = static_cast<int>(a.levels.size());
  p.fresh = a.fresh;
  p.w_cycle = a.w_cycle;
  p.cg = a.cg;
  p.pre_smooth = a.pre_smooth;
  p.stepped = a.stepped;
  p.post_smooth = a.post_smooth;
  p.bottom_sweeps = a.bottom_sweeps;
  if (a.cg) p.bottom = bottom_plain(a.bottom);
  for (int l = 0; l < p.count; ++l) {
    const BottomLevelArgs<T>& in = a.levels[static_cast<std::size_t>(l)];
    LevelPlain<T>& out = p.level[l];
    out.x = in.x;
    out.next = in.next;
    out.g = in.g;
    out.F = fine_fold(in.layout, in.rules);
    out.size = in.layout.size;
    for (int d = 0; d < 3; ++d) {
      out.lo[d] = in.box.lo[d];
      out.extent[d] = in.box.extent(d);
    }
    out.smooth = typed<T>(in.smooth);
    out.residual = typed<T>(in.residual);
    for (int s = 0; s < kMaxStepSweeps; ++s) {
      out.pre[s] = typed<T>(in.pre[static_cast<std::size_t>(s)]);
      out.post[s] = typed<T>(in.post[static_cast<std::size_t>(s)]);
    }
    out.ratio = in.ratio;
    out.scale = static_cast<T>(in.scale);
    out.halves = in.ratio.halves(in.layout.dims);
    out.fused = in.fused;
  }
  return p;
}

/// The levels whose correction ends in their `next` buffer (bit l): those that swept an odd
/// number of times, as the level-by-level cycles swap x and next after every sweep. The caller
/// swaps its buffers alike after the call.
template <typename T>
unsigned bottom_levels_swaps(const BottomLevelsArgs<T>& a) {
  unsigned odd = 0;
  LevelWalk walk(static_cast<int>(a.levels.size()), a.w_cycle, a.fresh);
  LevelStep s;
  int l;
  bool fresh;
  while (walk.next(s, l, fresh)) {
    const int sweeps = s == LevelStep::Down ? a.pre_smooth
                       : s == LevelStep::Up ? a.post_smooth
                       : a.cg               ? 0
                                            : a.bottom_sweeps;
    if (sweeps % 2 != 0) odd ^= 1u << l;
  }
  return odd;
}

}  // namespace fdsolve
