// The multigrid cycle, written once over any hierarchy of level operators: V and W cycles,
// full multigrid, and the cycle from zero that preconditions conjugate gradients.
//
// A hierarchy (LevelHierarchy) owns each level's correction x, its right-hand side and the
// operator's choices: which kernel smooths, whether a correction is fused into the first
// post-smoothing pass, whether the coarsest levels run in one device call, how the ranks share a
// level. The driver only says in which order the levels are visited, as the algorithm reads
// (Briggs, Henson and McCormick, "A Multigrid Tutorial", ch. 3): smooth, restrict the residual,
// solve the coarse correction equation (once for V, twice for W), correct, smooth; the order
// below a level is kernels/level_walk.hpp's, which the backend's one-call coarse levels follow.
#pragma once

#include <algorithm>

#include "hierarchy.hpp"
#include "level_walk.hpp"

namespace fdsolve::multigrid {

/// The operations one level of a multigrid hierarchy offers the cycle driver. Level 0 is the
/// fine grid, whose fields (the caller's) the hierarchy binds before it runs a cycle; levels
/// 1..coarsest() hold corrections with homogeneous boundary conditions.
class LevelHierarchy {
 public:
  virtual ~LevelHierarchy() = default;

  /// The index of the coarsest level.
  virtual int coarsest() const = 0;
  /// Whether this rank works on `level` (a level gathered onto one rank is not everyone's).
  virtual bool here(int /*level*/) const { return true; }

  /// x_level = 0.
  virtual void zero(int level) = 0;
  /// `sweeps` smoothing sweeps of x_level; `zeroed`: x_level was just zeroed (its halo too).
  virtual void smooth(int level, int sweeps, bool zeroed) = 0;
  /// The right-hand side of level + 1 from the residual of x_level.
  virtual void restrict_residual(int level) = 0;
  /// Full multigrid's descent: the right-hand side of level + 1 from level's own.
  virtual void restrict_rhs(int level) = 0;
  /// x_level += P x_(level + 1), then `sweeps` smoothing sweeps; the hierarchy may fuse the
  /// correction into the first sweep.
  virtual void correct_and_smooth(int level, int sweeps) = 0;
  /// x_level += P x_(level + 1) alone (full multigrid's ascent; `high_order`: the hierarchy's
  /// higher-order interpolation where it has one).
  virtual void interpolate(int level, bool high_order) = 0;
  /// Solves the coarsest level's equation (or reduces its error enough for the cycle).
  virtual void solve_coarsest() = 0;
  /// The cycle on the fine level when it is the only level: `done` smoothing sweeps of it are
  /// already done (the probe's).
  virtual void solve_alone(int done) = 0;

  /// Whether the hierarchy visits `level` and every level below in one call of its own
  /// (visit_below), which must do what the driver's visit would.
  virtual bool visits_below(int /*level*/) const { return false; }
  virtual void visit_below(int /*level*/, bool /*fresh*/) {}
};

/// The shape of a cycle: V or W, and the smoothing sweeps before and after the coarse
/// correction (solve.multigrid).
struct CycleShape {
  CycleKind kind = CycleKind::V;
  int pre = 2;
  int post = 2;
};

inline CycleShape cycle_shape(const MultigridSpec& spec) {
  return {spec.cycle, spec.pre_smooth, spec.post_smooth};
}

/// Solves level's correction equation approximately; `fresh`: from x_level = 0. The levels are
/// visited in LevelWalk's order, the one the coarsest levels' single device call follows too:
/// smooth, restrict the residual, visit the next level (once for V, twice for W), correct and
/// smooth.
inline void visit(LevelHierarchy& h, const CycleShape& shape, int level, bool fresh) {
  LevelWalk walk(h.coarsest() - level + 1, shape.kind == CycleKind::W, fresh);
  LevelStep step;
  int below;  // the step's level, counted from `level`
  bool zeroed;
  while (walk.next(step, below, zeroed)) {
    const int l = level + below;
    if (step == LevelStep::Up) {
      h.correct_and_smooth(l, shape.post);
      continue;
    }
    if (!h.here(l)) {
      walk.finish(below);
      continue;
    }
    if (step == LevelStep::Down && h.visits_below(l)) {
      h.visit_below(l, zeroed);
      walk.finish(below);
      continue;
    }
    if (zeroed) h.zero(l);
    if (step == LevelStep::Bottom) {
      h.solve_coarsest();
      continue;
    }
    h.smooth(l, shape.pre, zeroed);
    h.restrict_residual(l);
  }
}

/// One cycle on the fine level's x, of whose pre-smoothing `pre_done` sweeps are done.
inline void fine_cycle(LevelHierarchy& h, const CycleShape& shape, int pre_done = 0) {
  if (h.coarsest() == 0) return h.solve_alone(pre_done);
  h.smooth(0, std::max(0, shape.pre - pre_done), false);
  h.restrict_residual(0);
  visit(h, shape, 1, true);
  if (shape.kind == CycleKind::W && h.coarsest() > 1) visit(h, shape, 1, false);
  h.correct_and_smooth(0, shape.post);
}

/// Full multigrid on the correction equation of the fine level: the residual restricted down to
/// the coarsest level, solved there, and each level's solution interpolated up as the start of
/// one cycle of the next finer; ends with one fine cycle.
inline void full_multigrid(LevelHierarchy& h, const CycleShape& shape, bool high_order) {
  if (h.coarsest() == 0) return fine_cycle(h, shape);
  h.restrict_residual(0);
  for (int l = 1; l < h.coarsest(); ++l)
    if (h.here(l)) h.restrict_rhs(l);
  visit(h, shape, h.coarsest(), true);
  for (int l = h.coarsest() - 1; l >= 1; --l) {
    if (!h.here(l)) continue;
    h.zero(l);
    h.interpolate(l, high_order);
    visit(h, shape, l, false);
  }
  h.interpolate(0, high_order);
  fine_cycle(h, shape);
}

}  // namespace fdsolve::multigrid
