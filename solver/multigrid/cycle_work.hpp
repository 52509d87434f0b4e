// What one multigrid cycle costs, in work units: fine-sweep equivalents, each level's sweeps
// weighted by its share of the fine grid's updated nodes. `check` prints it and the time it
// predicts; a cycle that would cost more than kMaxCycleWork is refused as an input error, so
// that no case file can make multigrid slower than a plain Jacobi solve of the same length.
#pragma once

#include <string>
#include <vector>

#include "case.hpp"
#include "hierarchy.hpp"

namespace fdsolve::multigrid {

/// More work per cycle than this is an input error (solve.multigrid's settings on this grid).
constexpr double kMaxCycleWork = 100;
/// More than this draws a warning: a V(2,2) cycle costs 7 to 10 on any grid.
constexpr double kWarnCycleWork = 30;
/// The largest coarsest grid the bottom CG takes (one thread block on CUDA); the hierarchy
/// coarsens every grid to 3 or 4 nodes per axis, so only a level kept whole by a split over
/// ranks can be larger.
constexpr index_t kMaxCgCells = index_t(1) << 16;

/// Whether the coarsest of `levels` is solved by conjugate gradients (else by sweeps).
bool cg_bottom_applies(const std::vector<LevelGeometry>& levels);
/// The bottom CG's iteration limit on a grid of `unknowns` updated nodes.
int cg_bottom_iterations(index_t unknowns);

struct CycleWork {
  double total = 0;              // work units per cycle
  std::vector<double> by_level;  // the same, level by level
  bool cg_bottom = false;
  int bottom_sweeps = 0;         // without CG: the bottom's smoothing sweeps
  double bottom_radius = 0;      // and their spectral radius
};

/// The work of one cycle of `m` on `levels` with the operator alpha I - beta L. The bottom CG
/// counts at its iteration limit, four array passes per iteration.
CycleWork cycle_work(const MultigridSpec& m, const std::vector<LevelGeometry>& levels,
                     double alpha = 0.0, double beta = 1.0);

/// Throws InputError (naming solve.multigrid) when a cycle of the case's multigrid on `levels`
/// costs more than kMaxCycleWork; returns a warning above kWarnCycleWork, else "".
std::string cycle_work_warning(const Case& c, const std::vector<LevelGeometry>& levels);

}  // namespace fdsolve::multigrid
