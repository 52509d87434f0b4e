// The halo-exchange step of the solver loop: neighbouring ranks' face layers fill the one-node
// halo before each sweep. On one rank there is no neighbour and it does nothing; the physical
// faces' ghosts (Neumann, periodic) are filled by Boundaries, which interleaves them with this
// exchange axis by axis (Boundaries::before_sweep).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "backend.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"

namespace fdsolve {

template <typename T>
class HaloExchange {
 public:
  /// One rank: nothing to exchange.
  explicit HaloExchange(const Layout& layout) : layout_(layout) {}
  /// The rank `d.rank` of a decomposition: buffers for each face shared with another rank.
  HaloExchange(const Layout& layout, Backend<T>& backend, const parallel::Comm& comm,
               const parallel::Decomposition& d);

  /// Fills the halo of `field` on the faces shared with other ranks, axis by axis.
  void exchange(Buffer<T>& field) {
    for (int axis = 0; axis < layout_.dims; ++axis) exchange_axis(field, axis);
  }
  /// Both faces of one axis: 2 messages. The in-face extent includes the halo of the axes
  /// before `axis`, so exchanging x, then y, then z also fills edge and corner ghosts.
  void exchange_axis(Buffer<T>& field, int axis);

  /// Whether any face is shared with another rank.
  bool active() const { return active_; }
  /// How the faces travel: "host memory", "device memory (CUDA-aware MPI)" or "device memory
  /// staged through host copies".
  std::string path() const;
  const Layout& layout() const { return layout_; }

 private:
  struct Face {
    int neighbour = -1;
    Box send, recv;                       // the owned layer sent, the halo layer received
    Buffer<T> send_buffer, recv_buffer;   // backend memory
    std::vector<T> send_host, recv_host;  // staging when MPI cannot read backend memory
  };
  const T* message(Face& f);
  T* landing(Face& f);
  void deliver(Buffer<T>& field, Face& f);

  Layout layout_;
  Backend<T>* backend_ = nullptr;
  parallel::Comm comm_;
  std::array<Face, 6> faces_{};
  bool active_ = false;
  bool direct_ = true;  // MPI reads backend memory itself
};

}  // namespace fdsolve
