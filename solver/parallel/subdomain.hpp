// The part of the grid one rank owns: its box of global node indices and which of its faces
// are filled by a neighbouring rank. One rank owns the whole grid (Subdomain::whole), so set-up
// code written against a Subdomain reads the same on one rank and on many.
#pragma once

#include <array>

#include "case.hpp"
#include "layout.hpp"

namespace fdsolve {

struct Subdomain {
  std::array<index_t, 3> global{1, 1, 1};  // nodes of the whole grid per axis
  std::array<index_t, 3> offset{0, 0, 0};  // global index of owned node 0
  std::array<index_t, 3> n{1, 1, 1};       // owned nodes per axis
  /// Faces (x_min, x_max, y_min, ...) whose halo a neighbouring rank fills: faces between
  /// ranks, and both faces of a periodic axis split over several ranks.
  std::array<bool, 6> exchanged{};

  /// The whole grid of `c` on one rank.
  static Subdomain whole(const Case& c) {
    Subdomain s;
    for (int a = 0; a < c.grid.dims; ++a) s.global[a] = s.n[a] = c.grid.points[a];
    return s;
  }

  /// Whether face `face` lies on the grid's boundary and keeps its boundary rule there.
  bool physical(int face) const {
    const int a = face / 2;
    const bool edge = face % 2 == 0 ? offset[a] == 0 : offset[a] + n[a] == global[a];
    return edge && !exchanged[face];
  }
  bool is_whole() const { return offset == std::array<index_t, 3>{0, 0, 0} && n == global; }
  /// The global index of local node `i` on `axis`.
  index_t to_global(int axis, index_t i) const { return i + offset[axis]; }
  /// The owned box in global node indices.
  Box global_box() const {
    return Box{offset, {offset[0] + n[0], offset[1] + n[1], offset[2] + n[2]}};
  }
};

}  // namespace fdsolve
