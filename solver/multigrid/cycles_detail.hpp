// Helpers the files of the cycles share: the shapes of a level's fields on one rank.
#pragma once

#include <array>

#include "hierarchy.hpp"
#include "halo_fill.hpp"
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

/// The padded layout of a field of n nodes (one 128-byte line of padding per row).
inline Layout layout_of(int dims, const std::array<index_t, 3>& n, std::size_t value_size) {
  return Layout::make(dims, n, static_cast<index_t>(128 / value_size));
}

}  // namespace fdsolve::multigrid::detail
