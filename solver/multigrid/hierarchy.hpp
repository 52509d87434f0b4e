// The grids of multigrid: the fine grid of a case and its node-centred coarsenings, each with
// the nodes it updates, its face types and the Jacobi weights of its re-discretised Laplacian.
// Host-side geometry only; buffers and cycles live in cycles.hpp.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "problem/weights.hpp"

namespace fdsolve::multigrid {

/// One grid: n nodes per axis (boundary nodes included; z has 1 in 2D) at `spacing`.
struct LevelGeometry {
  int dims = 2;
  int points_stencil = 5;                    // 5, 7, 19 or 27
  std::array<index_t, 3> n{1, 1, 1};
  std::array<double, 3> spacing{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};
  std::array<BoundaryType, 6> faces{};       // face types, as the case's
  Box box;                                   // the nodes a sweep updates (Dirichlet faces out)
  EquationWeights jacobi;                    // -lap u = f at this spacing: u = sum w u_nb + s f

  index_t cells() const { return n[0] * n[1] * n[2]; }
  /// The padded layout of a field of this grid for values of `value_size` bytes.
  Layout layout(std::size_t value_size) const;
};

/// The fine grid of a Laplace/Poisson/heat case.
LevelGeometry fine_level(const Case& c);

/// Whether `axis` of `g` coarsens: n - 1 even (periodic: n even) and at least 3 nodes after.
bool axis_coarsens(const LevelGeometry& g, int axis);
/// The next coarser grid (every axis halved); call only when every axis coarsens.
LevelGeometry coarsen(const LevelGeometry& g);

/// The fine grid first, then coarser ones while every axis coarsens.
std::vector<LevelGeometry> build_hierarchy(const LevelGeometry& fine);

/// The nodes per axis of each level, fine first (what the split over ranks works from).
std::vector<std::array<index_t, 3>> level_points(const std::vector<LevelGeometry>& levels);

/// For an axis that stopped coarsening early (its coarsest grid has more than 5 nodes), the
/// nearest node counts below and above `n` that coarsen down to 3-5 nodes.
std::array<index_t, 2> nearest_full_sizes(index_t n, bool periodic);

/// What `solve.method` resolves to for a case, and why (for `fdsolve check` and the log).
struct MethodChoice {
  bool multigrid = false;
  std::string reason;
};
MethodChoice choose_method(const Case& c);

/// A warning when coarsening stopped before the coarsest grid got small (the bottom solve then
/// does much of the work), naming the levels that were possible and sizes that coarsen fully;
/// empty when the hierarchy is complete.
std::string coarsening_warning(const Case& c, const std::vector<LevelGeometry>& levels);

}  // namespace fdsolve::multigrid
