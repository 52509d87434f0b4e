// Filling the one-node halo beyond the physical faces of a field before a sweep: mirrored
// ghosts for Neumann faces, wrap-around for periodic axes. Plain types only; the per-node rule
// is FDSOLVE_HOST_DEVICE so that both backends fill the same values from one definition.
#pragma once

#include <array>

#include "ghost_rule.hpp"
#include "point_update.hpp"

namespace fdsolve {

/// Fills the halo of `field` beyond every face whose rule is not None, axis by axis (x, then
/// y, then z). Each axis also fills the halo rows and columns of the axes before it, so edge and
/// corner ghosts that 19- and 27-point stencils read combine both faces' rules.
template <typename T>
struct HaloFillArgs {
  T* field = nullptr;
  Layout layout;
  std::array<GhostFace<T>, 6> faces{};  // indexed x_min, x_max, y_min, y_max, z_min, z_max
  /// 0: fill every ghost of the faces. Otherwise bit f set for the faces f whose halo another
  /// rank fills: only the ghosts with an in-face coordinate in such a halo are filled (the edge
  /// ghosts that read it, refilled once it has arrived, while a sweep reads the others).
  unsigned edge_mask = 0;
  /// When set, the x faces' ghosts are filled only for the rows (y, z) of `x_rows` (the rows a
  /// sweep updated: SweepArgs::x_ghosts on a variant that cannot write them itself).
  bool x_rows_only = false;
  Box x_rows{};

  bool any() const {
    for (const auto& f : faces)
      if (f.rule != GhostRule::None) return true;
    return false;
  }
};

/// One axis's fill: the fill axis and its in-face axes p and q, their node counts and element
/// strides, and the in-face range filled: axes before it include their halo (-1 and n), later
/// ones only the owned nodes. Plain scalars, no arrays: a kernel that indexes a parameter's
/// array at run time copies the whole parameter to local memory in every thread (a 112-160 byte
/// stack frame, ptxas sm_90), and device code cannot call std::array members.
struct HaloAxis {
  int dims = 2, axis = 0, p_axis = 1, q_axis = 2;
  index_t n_axis = 1, n_p = 1, n_q = 1;  // nodes along the fill axis, p and q
  index_t s_axis = 1, s_p = 0, s_q = 0;  // their element strides
  index_t origin = 0;
  index_t p_lo = 0, p_hi = 0, q_lo = 0, q_hi = 0;
  unsigned edge_mask = 0;  // HaloFillArgs::edge_mask

  /// Whether in-face position (p, q) is filled (every one, or those beside a masked halo).
  FDSOLVE_HOST_DEVICE bool fills(index_t p, index_t q) const {
    if (edge_mask == 0) return true;
    return beside(p_axis, n_p, p) || (q_axis < dims && beside(q_axis, n_q, q));
  }
  /// Whether coordinate i of axis a (of n_a nodes) lies in the halo of a face in edge_mask.
  FDSOLVE_HOST_DEVICE bool beside(int a, index_t n_a, index_t i) const {
    return (i == -1 && ((edge_mask >> (2 * a)) & 1u)) ||
           (i == n_a && ((edge_mask >> (2 * a + 1)) & 1u));
  }

  /// Index of face node (p, q) in a per-node offset array of this axis's faces. The arrays span
  /// both in-face axes with their halo (in 2D z has none), whichever part one fill uses.
  FDSOLVE_HOST_DEVICE index_t face_index(index_t p, index_t q) const {
    return (q + (q_axis < dims ? 1 : 0)) * (n_p + 2) + (p + 1);
  }
  index_t face_size() const { return (n_p + 2) * (n_q + (q_axis < dims ? 2 : 0)); }
};

inline HaloAxis halo_axis(const Layout& L, int axis) {
  HaloAxis h;
  h.dims = L.dims;
  h.axis = axis;
  h.p_axis = axis == 0 ? 1 : 0;
  h.q_axis = axis == 2 ? 1 : 2;
  const index_t stride[3] = {1, L.pitch, L.plane};
  h.n_axis = L.n[axis];
  h.n_p = L.n[h.p_axis];
  h.n_q = L.n[h.q_axis];
  h.s_axis = stride[axis];
  h.s_p = stride[h.p_axis];
  h.s_q = stride[h.q_axis];
  h.origin = L.origin;
  const auto with_halo = [&](int a) { return a < axis && a < L.dims; };
  h.p_lo = with_halo(h.p_axis) ? -1 : 0;
  h.p_hi = L.n[h.p_axis] + (with_halo(h.p_axis) ? 1 : 0);
  h.q_lo = with_halo(h.q_axis) ? -1 : 0;
  h.q_hi = L.n[h.q_axis] + (with_halo(h.q_axis) ? 1 : 0);
  return h;
}

/// The in-face range one axis of `args` fills: halo_axis, with edge_mask and x_rows applied.
template <typename T>
HaloAxis fill_axis(const HaloFillArgs<T>& args, int axis) {
  HaloAxis h = halo_axis(args.layout, axis);
  h.edge_mask = args.edge_mask;
  if (axis == 0 && args.x_rows_only) {
    h.p_lo = args.x_rows.lo[1];
    h.p_hi = args.x_rows.hi[1];
    h.q_lo = args.x_rows.lo[2];
    h.q_hi = args.x_rows.hi[2];
  }
  return h;
}

/// What a sweep with SweepArgs::x_ghosts writes beyond its box, as a halo fill of `out`: for a
/// backend or variant that sweeps first and fills after.
template <typename T>
HaloFillArgs<T> x_ghost_fill(const SweepArgs<T>& a) {
  HaloFillArgs<T> f;
  f.field = a.out;
  f.layout = a.layout;
  f.faces[0] = a.x_ghosts[0];
  f.faces[1] = a.x_ghosts[1];
  f.x_rows_only = true;
  f.x_rows = a.box;
  return f;
}

/// Fills the ghost of face (axis, side) at in-face position (p, q): side 0 is the min face
/// (ghost index -1), side 1 the max face (ghost index n).
template <typename T>
FDSOLVE_HOST_DEVICE void fill_ghost(T* u, const HaloAxis& h, int side, GhostRule rule, T offset,
                                    const T* offsets, index_t p, index_t q) {
  const index_t n = h.n_axis;
  const index_t ghost = side == 0 ? -1 : n;
  const index_t from = ghost_source(rule, side, n);
  const T add = rule == GhostRule::Wrap ? T(0) : offsets ? offsets[h.face_index(p, q)] : offset;
  const index_t in_face = p * h.s_p + q * h.s_q;
  u[h.origin + ghost * h.s_axis + in_face] = u[h.origin + from * h.s_axis + in_face] + add;
}

}  // namespace fdsolve
