// Backend memory of the flux form's multigrid (a coefficient field, held nodes, Robin faces):
// what FluxHierarchy, FluxIteration and the cycles' loop allocate, counted before the run
// allocates any of it. tests/cli/run_memory_estimate.sh holds it to the CPU backend's measured
// peak.
#include "multigrid_solve.hpp"

#include "flux_hierarchy.hpp"
#include "hierarchy.hpp"
#include "loop/loop_support.hpp"
#include "problem/memory_estimate.hpp"
#include "problem/robin_faces.hpp"

namespace fdsolve::multigrid {
namespace {

/// Bytes of the hierarchy's arrays over `levels` in elements of `value` bytes: per level its
/// three face arrays (2D keeps a third too), the node terms (capacity, Robin), the cycle's
/// fields (the sweep's second buffer; on coarse levels the correction and its right-hand side),
/// the grids between two levels that the axis transfers pass through (a quarter and a half of
/// the finer level in 3D, a half in 2D), and with Galerkin operators 3^dims couplings per
/// coarse node and the held marks' copy.
std::size_t flux_hierarchy_bytes(const Case& c, const std::vector<LevelGeometry>& levels,
                                 std::size_t value) {
  const bool robin = has_robin_faces(c);
  const bool capacity = c.problem.equation == Equation::Heat && !c.problem.capacity.is_constant();
  const bool galerkin = galerkin_levels(levels);
  const int dims = c.grid.dims;
  double values = 0;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const auto n = static_cast<double>(levels[l].layout(value).size);
    values += n * (3 + (capacity ? 1 : 0) + (robin ? 2 : 0) + 1 + (l > 0 ? 2 : 0));
    if (l + 1 < levels.size()) values += n * (dims == 3 ? 0.75 : 0.5);
    if (galerkin && l > 0) values += n * ((dims == 3 ? 27 : 9) + (c.problem.fixed.empty() ? 0 : 1));
  }
  return static_cast<std::size_t>(values) * value;
}

}  // namespace

std::size_t flux_multigrid_memory(const Case& c, bool steady) {
  const std::size_t value = c.precision == Precision::Float ? sizeof(float) : sizeof(double);
  const auto levels = build_hierarchy(fine_level(c));
  const auto fine = static_cast<std::size_t>(levels[0].layout(value).size);
  // The fine fields (u and its second buffer, a source field, ...), the state before a cycle
  // where diagnostics or the update field need it, the copy of u that a cycle cut short by a
  // signal restores, and the iteration's five vectors (residual, search direction, A times it,
  // the preconditioned residual and the cycle's own residual; allocated with or without CG).
  const std::size_t loop = steady ? (needs_previous_state(c) ? 1 : 0) + 1 : 0;
  std::size_t bytes = required_memory(c) + (loop + 5) * fine * value;
  if (c.solve.multigrid.float_cycles && value == sizeof(double)) {
    // Float cycles: the hierarchy in float, its residual and correction in float, and the
    // double fine operator's faces for A p.
    const auto fine_float = static_cast<std::size_t>(levels[0].layout(sizeof(float)).size);
    return bytes + flux_hierarchy_bytes(c, levels, sizeof(float)) +
           2 * fine_float * sizeof(float) + 3 * fine * value;
  }
  return bytes + flux_hierarchy_bytes(c, levels, value);
}

}  // namespace fdsolve::multigrid
