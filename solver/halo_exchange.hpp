// The halo-exchange step of the solver loop. On one rank with Dirichlet faces there is
// nothing to exchange; this is where periodic wrap-around, Neumann ghosts and, later, MPI
// neighbours fill the one-node halo before each sweep.
#pragma once

#include "backend.hpp"

namespace fdsolve {

template <typename T>
class HaloExchange {
 public:
  explicit HaloExchange(const Layout& layout) : layout_(layout) {}

  /// Fills the halo of `field` from its neighbours. A no-op on a single rank with Dirichlet
  /// boundaries: the kernels read the boundary nodes, which never change.
  void exchange(Buffer<T>& /*field*/) {}

  const Layout& layout() const { return layout_; }

 private:
  Layout layout_;
};

}  // namespace fdsolve
