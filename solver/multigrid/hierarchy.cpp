// Node-centred coarsening: n nodes -> ceil((n - 1)/2) + 1 over the same extent (nested, at
// spacing 2h, when n - 1 is even), a periodic axis of n nodes -> ceil(n/2) over the same period;
// axes that cannot coarsen, or whose spacing is already much coarser than another's, keep their
// nodes. The coarse operator is the same stencil at the coarse spacing (19 and 27 points need
// equal spacing: a level whose spacings differ takes the 7-point Laplacian).
#include "hierarchy.hpp"

#include <fmt/format.h>

#include "case_reader.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {
namespace {

/// Levels a method: auto case needs before multigrid pays: the fine grid coarsened twice.
constexpr std::size_t kAutoMinLevels = 3;
/// An axis whose coarsest grid keeps more nodes than this stopped coarsening early.
constexpr index_t kSmallCoarsest = 5;

index_t coarse_points(index_t n, bool periodic) { return periodic ? n / 2 : (n - 1) / 2 + 1; }

}  // namespace

Layout LevelGeometry::layout(std::size_t value_size) const {
  return Layout::make(dims, n, static_cast<index_t>(128 / value_size));
}

LevelGeometry fine_level(const Case& c) {
  LevelGeometry g;
  g.dims = c.grid.dims;
  g.points_stencil = c.stencil.points;
  for (int a = 0; a < 3; ++a) {
    const bool active = a < g.dims;
    g.n[a] = active ? c.grid.points[a] : 1;
    g.spacing[a] = active ? c.grid.spacing(a) : 1.0;
    g.periodic[a] = active && c.grid.periodic[a];
  }
  for (int f = 0; f < 6; ++f) g.faces[f] = c.boundary[f].type;
  g.box = update_box(c);
  g.jacobi = laplacian_weights(g.points_stencil, g.dims, g.spacing);
  return g;
}

bool axis_coarsens(const LevelGeometry& g, int axis) {
  const index_t n = g.n[axis];
  const bool even = g.periodic[axis] ? n % 2 == 0 : (n - 1) % 2 == 0;
  return even && coarse_points(n, g.periodic[axis]) >= 3;
}

LevelGeometry coarsen(const LevelGeometry& g) {
  LevelGeometry c = g;
  for (int a = 0; a < g.dims; ++a) {
    c.n[a] = coarse_points(g.n[a], g.periodic[a]);
    c.spacing[a] = 2.0 * g.spacing[a];
    const bool lo_fixed = g.faces[2 * a] == BoundaryType::Dirichlet;
    const bool hi_fixed = g.faces[2 * a + 1] == BoundaryType::Dirichlet;
    c.box.lo[a] = lo_fixed ? 1 : 0;
    c.box.hi[a] = c.n[a] - (hi_fixed ? 1 : 0);
  }
  c.jacobi = laplacian_weights(c.points_stencil, c.dims, c.spacing);
  return c;
}

std::vector<LevelGeometry> build_hierarchy(const LevelGeometry& fine) {
  std::vector<LevelGeometry> levels{fine};
  for (;;) {
    const LevelGeometry& g = levels.back();
    bool all = true;
    for (int a = 0; a < g.dims; ++a) all = all && axis_coarsens(g, a);
    if (!all) return levels;
    levels.push_back(coarsen(g));
  }
}

std::vector<std::array<index_t, 3>> level_points(const std::vector<LevelGeometry>& levels) {
  std::vector<std::array<index_t, 3>> points;
  for (const LevelGeometry& g : levels) points.push_back(g.n);
  return points;
}

std::array<index_t, 2> nearest_full_sizes(index_t n, bool periodic) {
  // Sizes that coarsen fully: 2^k + 1 (periodic: m 2^k with m = 3, 4 or 5).
  std::vector<index_t> sizes;
  for (index_t p = 4; p <= (index_t(1) << 40); p *= 2) {
    if (periodic) {
      for (index_t m : {3, 4, 5}) sizes.push_back(m * p / 4);
    } else {
      sizes.push_back(p + 1);
    }
  }
  std::array<index_t, 2> best{0, 0};
  for (index_t s : sizes) {
    if (s <= n && s > best[0]) best[0] = s;
    if (s >= n && (best[1] == 0 || s < best[1])) best[1] = s;
  }
  return best;
}

MethodChoice choose_method(const Case& c) {
  const SolveMethod m = c.solve.method;
  const bool steady =
      c.problem.equation == Equation::Laplace || c.problem.equation == Equation::Poisson;
  if (!steady) return {false, "equation " + std::string(c.problem.equation == Equation::Heat
                                                           ? "heat steps in time"
                                                           : "custom has no operator to coarsen")};
  if (m == SolveMethod::Jacobi) return {false, "solve.method: jacobi"};
  if (c.solve.criterion == Criterion::Update) {
    // Multigrid's norms are of the residual; stopping on a cycle's update is not offered.
    if (m == SolveMethod::Multigrid)
      throw InputError(c.where("solve.criterion") +
                       "solve.criterion: update applies to method jacobi; multigrid stops on "
                       "the residual (criterion residual or auto)");
    return {false, "auto: solve.criterion update asks for Jacobi's update norms"};
  }
  if (m == SolveMethod::Multigrid) return {true, "solve.method: multigrid"};
  const std::size_t levels = build_hierarchy(fine_level(c)).size();
  if (levels >= kAutoMinLevels)
    return {true, fmt::format("auto: the grid coarsens to {} levels", levels)};
  return {false, fmt::format("auto: the grid coarsens to {} level{} only (multigrid needs {}; "
                             "n - 1 even on every axis, n even when periodic)",
                             levels, levels == 1 ? "" : "s", kAutoMinLevels)};
}

std::string coarsening_warning(const Case& c, const std::vector<LevelGeometry>& levels) {
  const LevelGeometry& coarsest = levels.back();
  std::string axes;
  for (int a = 0; a < coarsest.dims; ++a) {
    if (coarsest.n[a] <= kSmallCoarsest) continue;
    const auto sizes = nearest_full_sizes(c.grid.points[a], coarsest.periodic[a]);
    axes += fmt::format("{}axis {} stops at {} nodes (nearest sizes that coarsen fully: {}{}{})",
                        axes.empty() ? "" : "; ", "xyz"[a], coarsest.n[a], sizes[0],
                        sizes[1] != sizes[0] && sizes[1] != 0 ? " or " : "",
                        sizes[1] != sizes[0] && sizes[1] != 0 ? std::to_string(sizes[1]) : "");
  }
  if (axes.empty()) return "";
  std::string counts;
  for (const LevelGeometry& g : levels)
    counts += fmt::format("{}{}", counts.empty() ? "" : ", ",
                          fmt::join(g.n.begin(), g.n.begin() + g.dims, "x"));
  return fmt::format(
      "multigrid: the grid coarsens to {} level{} only ({}): {}; the bottom solve on the "
      "coarsest grid does the rest, with many sweeps",
      levels.size(), levels.size() == 1 ? "" : "s", counts, axes);
}

}  // namespace fdsolve::multigrid
