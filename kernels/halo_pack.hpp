// Packing a box of a field (a face layer, halo nodes allowed) into a dense buffer and back:
// the halo exchange's messages. The element of the n-th packed value is one
// FDSOLVE_HOST_DEVICE function, so both backends pack in the same order (C order, x fastest).
#pragma once

#include "layout.hpp"
#include "point_update.hpp"  // FDSOLVE_HOST_DEVICE

namespace fdsolve {

/// A box of a layout as plain scalars (device code cannot call std::array members).
struct PackGeometry {
  index_t lo[3] = {0, 0, 0};
  index_t extent[3] = {0, 0, 0};
  index_t pitch = 0, plane = 0, origin = 0;

  index_t count() const { return extent[0] * extent[1] * extent[2]; }
  /// The buffer element of packed value `n`.
  FDSOLVE_HOST_DEVICE index_t element(index_t n) const {
    const index_t i = n % extent[0];
    const index_t row = n / extent[0];
    const index_t j = row % extent[1];
    const index_t k = row / extent[1];
    return origin + (lo[2] + k) * plane + (lo[1] + j) * pitch + lo[0] + i;
  }
};

inline PackGeometry pack_geometry(const Layout& L, const Box& box) {
  PackGeometry g;
  for (int a = 0; a < 3; ++a) {
    g.lo[a] = box.lo[a];
    g.extent[a] = box.extent(a);
  }
  g.pitch = L.pitch;
  g.plane = L.plane;
  g.origin = L.origin;
  return g;
}

}  // namespace fdsolve
