// The grids of multigrid: the fine grid of a case and its node-centred coarsenings, each with
// the nodes it updates, its face types and the Jacobi weights of its re-discretised Laplacian.
// Host-side geometry only; buffers and cycles live in stencil_hierarchy.hpp.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "problem/weights.hpp"
#include "transfer_ratio.hpp"

namespace fdsolve::multigrid {

/// One grid: n nodes per axis (boundary nodes included; z has 1 in 2D) at `spacing`.
struct LevelGeometry {
  int dims = 2;
  int points_stencil = 5;                    // 5, 7, 19 or 27
  std::array<index_t, 3> n{1, 1, 1};
  std::array<double, 3> spacing{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};
  std::array<BoundaryType, 6> faces{};       // face types, as the case's (robin: neumann)
  Box box;                                   // the nodes a sweep updates (Dirichlet faces out)
  EquationWeights jacobi;                    // -lap u = f at this spacing: u = sum w u_nb + s f
  /// Where this grid's nodes sit on the next finer grid (transfer_ratio.hpp): nested halving,
  /// a non-nested ratio (an even node count), or 1:1 on an axis that did not coarsen. Unused
  /// on the fine grid.
  TransferRatio ratio{};
  /// Which axes the next coarser grid coarsens (all on the coarsest grid): the smoother's
  /// weight is chosen for the frequencies that grid cannot represent.
  std::array<bool, 3> coarsens{true, true, true};

  index_t cells() const { return n[0] * n[1] * n[2]; }
  /// The padded layout of a field of this grid for values of `value_size` bytes.
  Layout layout(std::size_t value_size) const;
};

/// The fine grid of a Laplace/Poisson/heat case.
LevelGeometry fine_level(const Case& c);

/// The node count of `axis` one level coarser: ceil((n - 1) / 2) + 1 over the same extent
/// (periodic: ceil(n / 2) over the same period); nested exactly when n - 1 (periodic: n) is even.
index_t coarse_points(index_t n, bool periodic);
/// Whether `axis` of `g` can coarsen: at least 3 nodes after.
bool axis_coarsens(const LevelGeometry& g, int axis);
/// The next coarser grid: the axes that can coarsen and whose spacing is within 1.2x of the
/// finest such axis (semi-coarsening toward the fine direction, so that the coarse operator
/// stays near isotropic); the others keep their nodes. Call only when some axis coarsens.
LevelGeometry coarsen(const LevelGeometry& g);

/// The fine grid first, then coarser ones while some axis coarsens: every node count reaches
/// a coarsest grid of 3 or 4 nodes per axis.
std::vector<LevelGeometry> build_hierarchy(const LevelGeometry& fine);

/// The nodes per axis of each level, fine first (what the split over ranks works from).
std::vector<std::array<index_t, 3>> level_points(const std::vector<LevelGeometry>& levels);

/// What `solve.method` resolves to for a case, and why (for `fdsolve check` and the log).
struct MethodChoice {
  bool multigrid = false;
  std::string reason;
};
MethodChoice choose_method(const Case& c);

}  // namespace fdsolve::multigrid
