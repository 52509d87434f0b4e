// Memory layout of a field: the owned nodes plus a halo of one node on every side of each
// active axis, with rows padded so that owned node x=0 of every row is 128-byte aligned.
#pragma once

#include <array>
#include <cstdint>

namespace fdsolve {

using index_t = std::int64_t;

/// Half-open box [lo, hi) of node indices per axis, in the owned index space of a field.
/// Kernels update exactly the nodes of one box, so a rank's sub-domain or a face-free
/// interior is just another box.
struct Box {
  std::array<index_t, 3> lo{0, 0, 0};
  std::array<index_t, 3> hi{1, 1, 1};

  index_t extent(int axis) const { return hi[axis] > lo[axis] ? hi[axis] - lo[axis] : 0; }
  index_t cells() const { return extent(0) * extent(1) * extent(2); }
  bool empty() const { return cells() == 0; }
};

/// Where node (i, j, k) of a field lives in its buffer. Index -1 and n are the halo.
/// In 2D the z axis has one owned node and no halo.
struct Layout {
  int dims = 2;
  std::array<index_t, 3> n{1, 1, 1};  // owned nodes per axis
  index_t pitch = 0;                  // elements between consecutive rows (y stride)
  index_t plane = 0;                  // elements between consecutive planes (z stride)
  index_t origin = 0;                 // element offset of owned node (0, 0, 0)
  index_t size = 0;                   // elements to allocate

  index_t at(index_t i, index_t j, index_t k = 0) const {
    return origin + k * plane + j * pitch + i;
  }
  index_t owned_cells() const { return n[0] * n[1] * n[2]; }
  Box owned_box() const { return Box{{0, 0, 0}, {n[0], n[1], n[2]}}; }

  /// Builds the layout for `dims` axes with `n` owned nodes, padding rows so that node x=0
  /// starts on a multiple of `align` elements (pass 128 / sizeof(value)).
  static Layout make(int dims, std::array<index_t, 3> n, index_t align) {
    Layout l;
    l.dims = dims;
    l.n = n;
    if (dims == 2) l.n[2] = 1;
    const index_t row = align + l.n[0] + 1;  // align-1 pad, halo, owned, halo
    l.pitch = (row + align - 1) / align * align;
    l.plane = l.pitch * (l.n[1] + 2);
    const index_t planes = dims == 3 ? l.n[2] + 2 : 1;
    l.origin = align + l.pitch + (dims == 3 ? l.plane : 0);
    l.size = l.plane * planes;
    return l;
  }
};

}  // namespace fdsolve
