// The halo exchange between ranks (solver/halo_exchange.hpp): pack a face layer on the
// backend, swap it with the neighbour by MPI_Sendrecv, unpack it into the halo. Blocking, one
// axis at a time; overlapping the interior sweep with the messages is a later step (post the
// receives and sends of all faces first, sweep the interior, then wait and sweep the rim).
#include "halo_exchange.hpp"

namespace fdsolve {
namespace {

/// The layer of face (axis, side): `halo` false the owned layer next to it, true the halo
/// layer beyond it. In-face axes before `axis` include their halo (halo_axis's ranges).
Box face_layer(const Layout& L, int axis, int side, bool halo) {
  Box b;
  for (int a = 0; a < 3; ++a) {
    const bool with_halo = a < axis && a < L.dims;
    b.lo[a] = with_halo ? -1 : 0;
    b.hi[a] = L.n[a] + (with_halo ? 1 : 0);
  }
  const index_t n = L.n[axis];
  const index_t at = side == 0 ? (halo ? -1 : 0) : (halo ? n : n - 1);
  b.lo[axis] = at;
  b.hi[axis] = at + 1;
  return b;
}

}  // namespace

template <typename T>
HaloExchange<T>::HaloExchange(const Layout& layout, Backend<T>& backend, const parallel::Comm& comm,
                              const parallel::Decomposition& d)
    : layout_(layout), backend_(&backend), comm_(comm) {
  direct_ = backend.host_memory() || parallel::mpi_cuda_aware();
  for (int face = 0; face < 2 * layout.dims; ++face) {
    if (d.neighbour[face] < 0) continue;
    Face& f = faces_[face];
    f.neighbour = d.neighbour[face];
    f.send = face_layer(layout, face / 2, face % 2, false);
    f.recv = face_layer(layout, face / 2, face % 2, true);
    f.send_buffer = backend.allocate(f.send.cells());
    f.recv_buffer = backend.allocate(f.recv.cells());
    if (!direct_) {
      f.send_host.resize(static_cast<std::size_t>(f.send.cells()));
      f.recv_host.resize(static_cast<std::size_t>(f.recv.cells()));
    }
    active_ = true;
  }
}

template <typename T>
const T* HaloExchange<T>::message(Face& f) {
  if (direct_) return f.send_buffer.data();
  backend_->download(f.send_host.data(), f.send_buffer, f.send.cells());
  return f.send_host.data();
}

template <typename T>
T* HaloExchange<T>::landing(Face& f) {
  return direct_ ? f.recv_buffer.data() : f.recv_host.data();
}

template <typename T>
void HaloExchange<T>::deliver(Buffer<T>& field, Face& f) {
  if (!direct_) backend_->upload(f.recv_buffer, f.recv_host.data(), f.recv.cells());
  backend_->unpack_box(field, layout_, f.recv, f.recv_buffer);
}

template <typename T>
void HaloExchange<T>::exchange_axis(Buffer<T>& field, int axis) {
  Face& lo = faces_[2 * axis];
  Face& hi = faces_[2 * axis + 1];
  if (lo.neighbour < 0 && hi.neighbour < 0) return;
  const auto bytes = [](const Box& b) { return static_cast<std::size_t>(b.cells()) * sizeof(T); };
  const T* to_lo = nullptr;
  const T* to_hi = nullptr;
  if (lo.neighbour >= 0) {
    backend_->pack_box(field, layout_, lo.send, lo.send_buffer);
    to_lo = message(lo);
  }
  if (hi.neighbour >= 0) {
    backend_->pack_box(field, layout_, hi.send, hi.send_buffer);
    to_hi = message(hi);
  }
  // Downward: my low layer becomes the low neighbour's high halo; then upward. With two ranks
  // on a periodic axis both neighbours are the same rank: the tags keep the two apart.
  comm_.sendrecv(to_lo, lo.neighbour >= 0 ? bytes(lo.send) : 0, lo.neighbour,
                 hi.neighbour >= 0 ? landing(hi) : nullptr, hi.neighbour >= 0 ? bytes(hi.recv) : 0,
                 hi.neighbour, 2 * axis);
  comm_.sendrecv(to_hi, hi.neighbour >= 0 ? bytes(hi.send) : 0, hi.neighbour,
                 lo.neighbour >= 0 ? landing(lo) : nullptr, lo.neighbour >= 0 ? bytes(lo.recv) : 0,
                 lo.neighbour, 2 * axis + 1);
  if (hi.neighbour >= 0) deliver(field, hi);
  if (lo.neighbour >= 0) deliver(field, lo);
}

template <typename T>
std::string HaloExchange<T>::path() const {
  if (!backend_ || backend_->host_memory()) return "host memory";
  return direct_ ? "device memory (CUDA-aware MPI)" : "device memory staged through host copies";
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace fdsolve
