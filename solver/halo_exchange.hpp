// The halo-exchange step of the solver loop: where, later, neighbouring ranks' faces fill the
// one-node halo before each sweep. On one rank there is no neighbour, so it does nothing; the
// physical faces' ghosts (Neumann, periodic) are filled by Boundaries right after it.
#pragma once

#include "backend.hpp"

namespace fdsolve {

template <typename T>
class HaloExchange {
 public:
  explicit HaloExchange(const Layout& layout) : layout_(layout) {}

  /// Fills the halo of `field` on the faces shared with other ranks: none on a single rank.
  void exchange(Buffer<T>& /*field*/) {}

  const Layout& layout() const { return layout_; }

 private:
  Layout layout_;
};

}  // namespace fdsolve
