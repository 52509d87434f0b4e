// Multigrid transfers that follow the variable-coefficient operator (flux_operator.hpp), one axis
// at a time. Prolongation along axis a from a grid coarse along a to one fine along a: a node on
// a coarse node copies it; a node between two takes the flux-continuous mean
//   e_i = (beta_lo e_I + beta_hi e_{I+1}) / (beta_lo + beta_hi),
// beta_lo, beta_hi the fine faces on either side of it (exact for layered media, where linear
// interpolation puts the jump in the wrong place). Interpolating x, then y, then z makes the
// whole prolongation P; restriction is its transpose scaled by 1/2 per axis (R = 2^-d P^T, full
// weighting when the coefficient is constant), so that a cycle stays a symmetric preconditioner.
// The grids between the steps are fine along the axes done and coarse along the others; the face
// arrays are the fine level's, read at node 2I on a coarse axis.
#pragma once

#include <array>

#include "flux_operator.hpp"
#include "ghost_rule.hpp"
#include "grid_strides.hpp"
#include "layout.hpp"

namespace fdsolve {

template <typename T>
struct AxisTransferArgs {
  bool restrict = false;  // false: prolong (from coarse along `axis` to fine); true: the transpose
  int axis = 0;
  const T* from = nullptr;  // halo filled along `axis` (mirror / wrap) where it is read
  T* to = nullptr;
  Layout from_layout, to_layout;
  Box box;  // the nodes of `to` written
  const T* face = nullptr;  // the fine level's faces along `axis`
  Layout face_layout;
  std::array<int, 3> to_fine{1, 1, 1};  // per axis: index on the fine level = to_fine * index
  index_t n_fine = 1;                   // fine nodes along `axis`
  GhostRule lo = GhostRule::None, hi = GhostRule::None;  // fold of fine faces along `axis`
  double scale = 0.5;                   // restriction's factor
  /// Prolongation only: add each value to `to` instead of writing it, at the nodes of `box` whose
  /// entry in `held` (the level's held marker in `to`'s layout: negative where a node is held;
  /// null: none) is not negative. The last axis's pass then adds the correction to the level's
  /// field itself, as `to + value`, the sum a separate combine (1 x e + 1 x to) would form.
  bool accumulate = false;
  const T* held = nullptr;
  /// Prolongation only: write each node's weight of its lower coarse parent instead (1 on a
  /// node over a coarse node; `from` is not read): the weights Galerkin's product reads
  /// (galerkin_product.hpp).
  bool weights = false;
};

/// The plain scalars of AxisTransferArgs for device code.
template <typename T>
struct AxisTransferPlain {
  const T* from;
  T* to;
  const T* face;
  GridStrides from_s, to_s, face_s;
  int axis, fx, fy, fz;
  index_t n_fine;
  int lo, hi;  // 0 none, 1 mirror, 2 wrap
  T scale;
  const T* held;   // AxisTransferArgs::held
  int accumulate;  // AxisTransferArgs::accumulate
  int weights;     // AxisTransferArgs::weights
};

template <typename T>
AxisTransferPlain<T> axis_transfer_plain(const AxisTransferArgs<T>& a) {
  const auto rule = [](GhostRule r) { return r == GhostRule::Mirror ? 1 : r == GhostRule::Wrap ? 2 : 0; };
  return {a.from,         a.to,           a.face,          strides_of(a.from_layout),
          strides_of(a.to_layout), strides_of(a.face_layout), a.axis, a.to_fine[0],
          a.to_fine[1],   a.to_fine[2],   a.n_fine,        rule(a.lo),
          rule(a.hi),     T(a.scale),     a.held,          a.accumulate ? 1 : 0,
          a.weights ? 1 : 0};
}

/// Stores a transferred value at element `at` of `to`: written, or added where the node is not
/// held (AxisTransferArgs::accumulate).
template <typename T>
FDSOLVE_HOST_DEVICE void axis_transfer_store(const AxisTransferPlain<T>& p, index_t at, T value) {
  if (!p.accumulate)
    p.to[at] = value;
  else if (!p.held || p.held[at] >= T(0))
    p.to[at] = p.to[at] + value;
}

/// |face| at fine face index m along the axis (the face between fine nodes m and m + 1), folded
/// back across a mirrored face or around a periodic axis; `base` is the face array's element of
/// the transverse position with index 0 along the axis.
template <typename T>
FDSOLVE_HOST_DEVICE index_t axis_face_index(const AxisTransferPlain<T>& p, index_t m) {
  // Only faces 0..n-2 (and n-1, the wrap of a periodic axis) are read: the others are folded,
  // so that face arrays need no halo and no last face (collapsed Galerkin operators have none).
  const index_t n = p.n_fine;
  if (m < 0)
    m = p.lo == 2 ? m + n : p.lo == 1 ? -1 - m : 0;
  else if (p.hi == 2 ? m > n - 1 : m > n - 2)
    m = p.hi == 2 ? m - n : p.hi == 1 ? 2 * n - 3 - m : n - 2;
  return m;
}

template <typename T>
FDSOLVE_HOST_DEVICE T axis_face(const AxisTransferPlain<T>& p, index_t base, index_t step,
                                index_t m) {
  return flux_magnitude(p.face[base + axis_face_index(p, m) * step]);
}

/// One node of `to` at (i, j, k).
template <typename T>
FDSOLVE_HOST_DEVICE T axis_transfer_node(const AxisTransferPlain<T>& p, index_t i, index_t j,
                                         index_t k, bool restrict) {
  const index_t at[3] = {i, j, k};
  const int f[3] = {p.fx, p.fy, p.fz};
  // The face array's element at index 0 along the axis, at this transverse position.
  index_t q[3];
  for (int b = 0; b < 3; ++b) q[b] = b == p.axis ? 0 : at[b] * f[b];
  const index_t base = p.face_s.at(q[0], q[1], q[2]);
  const index_t step = p.axis == 0 ? 1 : p.axis == 1 ? p.face_s.pitch : p.face_s.plane;
  const index_t from_step = p.axis == 0 ? 1 : p.axis == 1 ? p.from_s.pitch : p.from_s.plane;
  const index_t c = at[p.axis];
  index_t g[3] = {i, j, k};
  if (!restrict) {  // fine index c from coarse nodes c / 2 (and c / 2 + 1)
    g[p.axis] = c >> 1;
    const index_t from = p.from_s.at(g[0], g[1], g[2]);
    if ((c & 1) == 0) return p.weights ? T(1) : p.from[from];
    const T lo = axis_face(p, base, step, c - 1), hi = axis_face(p, base, step, c);
    if (p.weights) return lo / (lo + hi);
    return (lo * p.from[from] + hi * p.from[from + from_step]) / (lo + hi);
  }
  // Restriction onto coarse index c: fine nodes 2c - 1, 2c, 2c + 1 with the weights by which
  // their prolongation reads coarse node c.
  g[p.axis] = 2 * c;
  const index_t mid = p.from_s.at(g[0], g[1], g[2]);
  const index_t m = 2 * c;
  const T below_lo = axis_face(p, base, step, m - 2), below_hi = axis_face(p, base, step, m - 1);
  const T above_lo = axis_face(p, base, step, m), above_hi = axis_face(p, base, step, m + 1);
  const T sum = p.from[mid] + below_hi / (below_lo + below_hi) * p.from[mid - from_step] +
                above_lo / (above_lo + above_hi) * p.from[mid + from_step];
  return p.scale * sum;
}

}  // namespace fdsolve
