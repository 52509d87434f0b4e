// Helpers the files of the cycles share: the shapes of a level's fields on one rank.
#pragma once

#include <array>

#include "backend.hpp"
#include "hierarchy.hpp"
#include "halo_fill.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve::multigrid::detail {

/// The whole grid `g` as one rank's box.
inline Subdomain whole_of(const LevelGeometry& g) {
  Subdomain s;
  s.global = s.n = g.n;
  return s;
}

/// The nodes of `sub` a sweep of grid `g` updates, in its local indices: Dirichlet nodes out
/// where the box touches a Dirichlet face of the grid.
inline Box local_box(const LevelGeometry& g, const Subdomain& sub) {
  Box b{{0, 0, 0}, {1, 1, 1}};
  for (int a = 0; a < g.dims; ++a) {
    const auto fixed = [&](int face) {
      return sub.physical(face) && g.faces[face] == BoundaryType::Dirichlet;
    };
    b.lo[a] = fixed(2 * a) ? 1 : 0;
    b.hi[a] = sub.n[a] - (fixed(2 * a + 1) ? 1 : 0);
  }
  return b;
}

/// Homogeneous ghost rules of the faces of `sub` on the grid's boundary: zero-gradient mirrors
/// and periodic wraps (faces between ranks are filled by the exchange).
template <typename T>
HaloFillArgs<T> homogeneous_rules(const LevelGeometry& g, const Layout& L, const Subdomain& sub) {
  HaloFillArgs<T> a;
  a.layout = L;
  for (int f = 0; f < 2 * g.dims; ++f) {
    if (!sub.physical(f)) continue;
    if (g.faces[f] == BoundaryType::Neumann) a.faces[f].rule = GhostRule::Mirror;
    if (g.faces[f] == BoundaryType::Periodic) a.faces[f].rule = GhostRule::Wrap;
  }
  return a;
}

/// Fills the ghosts of `x` by `rules` (rules.field is set here), axis by axis between the
/// exchanges of `halo` (null or inactive: nothing to exchange), so that edges and corners come
/// out as on one rank (Boundaries::before_sweep does the same for the fine grid's u).
template <typename T>
void fill_and_exchange(Backend<T>& backend, HaloFillArgs<T> rules, HaloExchange<T>* halo,
                       Buffer<T>& x) {
  rules.field = x.data();
  if (!halo || !halo->active()) {
    if (rules.any()) backend.fill_halo(rules);
    return;
  }
  // One axis at a time: its physical ghosts, then its exchange, which carries the earlier
  // axes' halo along (edges and corners as on one rank).
  for (int axis = 0; axis < rules.layout.dims; ++axis) {
    HaloFillArgs<T> one = rules;
    for (int face = 0; face < 6; ++face)
      if (face / 2 != axis) one.faces[face] = GhostFace<T>{};
    if (one.any()) backend.fill_halo(one);
    halo->exchange_axis(x, axis);
  }
}

/// The padded layout of a field of n nodes (one 128-byte line of padding per row).
inline Layout layout_of(int dims, const std::array<index_t, 3>& n, std::size_t value_size) {
  return Layout::make(dims, n, static_cast<index_t>(128 / value_size));
}

}  // namespace fdsolve::multigrid::detail
