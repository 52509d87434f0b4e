// Node-centred coarsening: n nodes -> ceil((n - 1)/2) + 1 over the same extent (nested, at
// spacing 2h, when n - 1 is even), a periodic axis of n nodes -> ceil(n/2) over the same period;
// axes that cannot coarsen, or whose spacing is already much coarser than another's, keep their
// nodes. The coarse operator is the same stencil at the coarse spacing (19 and 27 points need
// equal spacing: a level whose spacings differ takes the 7-point Laplacian).
#include "hierarchy.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "case_reader.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve::multigrid {
namespace {

/// Levels a method: auto case needs before multigrid pays: the fine grid coarsened twice.
constexpr std::size_t kAutoMinLevels = 3;

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
  // The faces name each level's homogeneous ghost rule: a Robin face mirrors as a Neumann one
  // (its transfer term sits on the diagonal: op::FluxLevel::diagonal).
  for (int f = 0; f < 6; ++f)
    g.faces[f] = c.boundary[f].type == BoundaryType::Robin ? BoundaryType::Neumann
                                                           : c.boundary[f].type;
  g.box = update_box(c);
  g.jacobi = laplacian_weights(g.points_stencil, g.dims, g.spacing);
  return g;
}

index_t coarse_points(index_t n, bool periodic) {
  return periodic ? (n + 1) / 2 : n / 2 + 1;  // ceil(n / 2); ceil((n - 1) / 2) + 1
}

bool axis_coarsens(const LevelGeometry& g, int axis) {
  return coarse_points(g.n[axis], g.periodic[axis]) >= 3;
}

LevelGeometry coarsen(const LevelGeometry& g) {
  // Semi-coarsening: coarsen the axes within kSemiRatio of the finest spacing among those that
  // can coarsen; coarser axes wait until the others catch up. Measured (CPU, V(2,2) to 1e-8):
  // at 1.5, spacings 1.3-1.5 apart were left to point smoothing of an anisotropic operator
  // (600x400 on a square: 16 cycles against 8 at 513^2; 65^3 at 1:1:1.4: 27 cycles); at 1.2
  // they semi-coarsen (8 and 10 cycles) at 12 instead of 8 fine sweeps per cycle.
  constexpr double kSemiRatio = 1.2;
  double finest = 0;
  for (int a = 0; a < g.dims; ++a)
    if (axis_coarsens(g, a) && (finest == 0 || g.spacing[a] < finest)) finest = g.spacing[a];
  LevelGeometry c = g;
  c.ratio = TransferRatio{};
  for (int a = 0; a < 3; ++a) c.ratio.num[a] = c.ratio.den[a] = 1;
  for (int a = 0; a < g.dims; ++a) {
    if (!axis_coarsens(g, a) || g.spacing[a] > kSemiRatio * finest) continue;
    const bool periodic = g.periodic[a];
    c.n[a] = coarse_points(g.n[a], periodic);
    // Coarse node I at fine position I den / num, the ratio in lowest terms (1/2 when nested).
    index_t num = periodic ? c.n[a] : c.n[a] - 1, den = periodic ? g.n[a] : g.n[a] - 1;
    const index_t common = std::gcd(num, den);
    c.ratio.num[a] = num / common;
    c.ratio.den[a] = den / common;
    c.spacing[a] = g.spacing[a] * static_cast<double>(c.ratio.den[a]) /
                   static_cast<double>(c.ratio.num[a]);
    const bool lo_fixed = g.faces[2 * a] == BoundaryType::Dirichlet;
    const bool hi_fixed = g.faces[2 * a + 1] == BoundaryType::Dirichlet;
    c.box.lo[a] = lo_fixed ? 1 : 0;
    c.box.hi[a] = c.n[a] - (hi_fixed ? 1 : 0);
  }
  if (c.points_stencil == 19 || c.points_stencil == 27) {
    bool equal = true;
    for (int a = 1; a < g.dims; ++a)
      equal = equal && std::fabs(c.spacing[a] - c.spacing[0]) <= 1e-12 * c.spacing[0];
    if (!equal) c.points_stencil = 7;
  }
  c.jacobi = laplacian_weights(c.points_stencil, c.dims, c.spacing);
  return c;
}

std::vector<LevelGeometry> build_hierarchy(const LevelGeometry& fine) {
  std::vector<LevelGeometry> levels{fine};
  for (;;) {
    const LevelGeometry& g = levels.back();
    bool any = false;
    for (int a = 0; a < g.dims; ++a) any = any || axis_coarsens(g, a);
    if (!any) return levels;
    LevelGeometry c = coarsen(g);
    for (int a = 0; a < 3; ++a) levels.back().coarsens[a] = c.n[a] != levels.back().n[a];
    c.coarsens = {true, true, true};
    levels.push_back(c);
  }
}

std::vector<std::array<index_t, 3>> level_points(const std::vector<LevelGeometry>& levels) {
  std::vector<std::array<index_t, 3>> points;
  for (const LevelGeometry& g : levels) points.push_back(g.n);
  return points;
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
  return {false, fmt::format("auto: the grid coarsens to {} level{} only (multigrid needs {})",
                             levels, levels == 1 ? "" : "s", kAutoMinLevels)};
}

}  // namespace fdsolve::multigrid
