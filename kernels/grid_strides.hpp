// A layout's element offsets as plain scalars, which device code can use (Layout's std::array
// members are host-only).
#pragma once

#include "host_device.hpp"
#include "layout.hpp"

namespace fdsolve {

struct GridStrides {
  int dims = 2;
  index_t origin = 0, pitch = 0, plane = 0;

  FDSOLVE_HOST_DEVICE index_t at(index_t i, index_t j, index_t k) const {
    return origin + k * plane + j * pitch + i;
  }
};

inline GridStrides strides_of(const Layout& L) { return {L.dims, L.origin, L.pitch, L.plane}; }

}  // namespace fdsolve
