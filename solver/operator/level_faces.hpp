// The face coefficients of one multigrid level in double, dense over the level's nodes, as
// flux_levels builds them before converting to the sweeps' layout (flux_levels.hpp says which
// faces each level has). Every loop here runs on all threads.
#pragma once

#include <array>
#include <cstdint>

#include "host_array.hpp"
#include "medium.hpp"
#include "multigrid/hierarchy.hpp"

namespace fdsolve::op {

/// face[a] is dense over (node index along the other axes) x (face index 0..n_a-1 along a, the
/// face between i and i + 1; the last one is the wrap of a periodic axis and otherwise unused).
/// Node values: the fine level reads the medium's arrays, a coarse level owns its own.
struct HostLevel {
  std::array<HostArray<double>, 3> face;
  const double* beta = nullptr;  // node values; null: beta_constant everywhere
  double beta_constant = 1.0;
  const std::uint8_t* held = nullptr;  // dense, non-zero where held; null: none held
  const double* capacity = nullptr;    // heat's capacity where it varies; null otherwise
  HostArray<double> own_beta, own_capacity;
  HostArray<std::uint8_t> own_held;

  double beta_at(index_t node) const { return beta ? beta[node] : beta_constant; }
};

inline index_t dense_index(const multigrid::LevelGeometry& g, index_t i, index_t j, index_t k) {
  return (k * g.n[1] + j) * g.n[0] + i;
}

/// A node index beyond an axis folded back by its face rule: mirrored across a Neumann face,
/// wrapped on a periodic axis, clamped at a Dirichlet face (whose ghost nothing reads).
index_t fold_node(const multigrid::LevelGeometry& g, int axis, index_t i);
/// The same for a face index (the face between nodes i and i + 1), valid for -1..n-1.
index_t fold_face(const multigrid::LevelGeometry& g, int axis, index_t i);

/// The fine level of the medium `m` on grid `g`: its node values and faces (harmonic means of
/// node values, or with problem.sampling: cells of the cells beside each face).
HostLevel fine_level_faces(const multigrid::LevelGeometry& g, const Medium& m);

/// The level `g` below `fine` (whose level is `f`): node values from the fine node nearest each
/// coarse node, faces averaged (nested levels: series along the face's axis, parallel across)
/// or re-discretised from the node values (levels that do not nest).
HostLevel coarse_level_faces(const multigrid::LevelGeometry& fine, const HostLevel& f,
                             const multigrid::LevelGeometry& g);

}  // namespace fdsolve::op
