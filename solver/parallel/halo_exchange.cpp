// The halo exchange between ranks (solver/parallel/halo_exchange.hpp): pack a face layer on the
// backend's transfer queue, swap it with the neighbour, unpack it into the halo. The swap is
// the backend's device exchange where connected (NCCL, enqueued on the transfer queue), else
// nonblocking MPI: MPI reads backend memory directly when it can (host memory, CUDA-aware MPI);
// otherwise the faces are staged through page-locked host buffers by the transfer queue's
// copies.
#include "halo_exchange.hpp"

#include <chrono>
#include <vector>

#include "parallel/transport.hpp"

namespace fdsolve {
namespace {

/// The layer of face (axis, side): `halo` false the owned layer next to it, true the halo
/// layer beyond it. In-face axes before `axis` include their halo (halo_axis's ranges), so
/// exchanging x, then y, then z carries edge and corner ghosts along.
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

std::size_t bytes_of(const Box& b, std::size_t value) {
  return static_cast<std::size_t>(b.cells()) * value;
}

/// Adds the seconds since `from` to `total` and restarts `from`.
void lap(std::chrono::steady_clock::time_point& from, double& total) {
  const auto now = std::chrono::steady_clock::now();
  total += std::chrono::duration<double>(now - from).count();
  from = now;
}

// Tags: the message toward the low neighbour of `axis` (its high halo) and toward the high
// one. With two ranks on a periodic axis both neighbours are the same rank: the tags keep the
// two directions apart; successive exchanges match in order (MPI's non-overtaking rule).
int tag_downward(int axis) { return 2 * axis; }
int tag_upward(int axis) { return 2 * axis + 1; }

// Each exchange path's words; exchange_transport maps them to summary.json's transport.
constexpr const char* kHostMemory = "host memory";
constexpr const char* kNccl = "device memory through NCCL";
constexpr const char* kCudaAware = "device memory (CUDA-aware MPI)";
constexpr const char* kStaged = "device memory staged through pinned host buffers";
}  // namespace

std::string exchange_path(bool host_memory) {
  if (host_memory) return kHostMemory;
  if (parallel::device_transport_connected()) return kNccl;
  return parallel::mpi_cuda_aware() ? kCudaAware : kStaged;
}

std::string exchange_transport(const std::string& path) {
  if (path == kNccl) return "nccl";
  if (path == kCudaAware) return "mpi from device memory";
  if (path == kStaged) return "mpi staged through host";
  return path;  // host memory, or none on one rank
}

template <typename T>
HaloExchange<T>::HaloExchange(const Layout& layout, Backend<T>& backend, const parallel::Comm& comm,
                              const parallel::Decomposition& d, bool edges)
    : layout_(layout), backend_(&backend), comm_(comm), edges_(edges) {
  if (DeviceExchange<T>* device = backend.device_exchange();
      device && device->connected() && !backend.host_memory())
    device_ = device;
  // Device messages read and write backend memory, as MPI does from host memory.
  direct_ = device_ || backend.host_memory() || parallel::mpi_cuda_aware();
  for (int face = 0; face < 2 * layout.dims; ++face) {
    if (d.neighbour[face] < 0) continue;
    Face& f = faces_[face];
    f.neighbour = d.neighbour[face];
    f.send = face_layer(layout, face / 2, face % 2, false);
    f.recv = face_layer(layout, face / 2, face % 2, true);
    f.send_buffer = backend.allocate(f.send.cells());
    f.recv_buffer = backend.allocate(f.recv.cells());
    if (!direct_) {
      f.send_staged = backend.transfers().allocate_staging(f.send.cells());
      for (Buffer<T>& landing : f.recv_staged)
        landing = backend.transfers().allocate_staging(f.recv.cells());
    }
    active_ = true;
  }
  if (device_ && active_) connect_neighbours();
}

template <typename T>
void HaloExchange<T>::connect_neighbours() {
  // The first message to each neighbour sets up its connection (NCCL connects peers lazily,
  // at a cost of the order of a second): sent here, in the set-up, where every rank builds its
  // exchanges in the same order, so that the loop's first exchange does not pay it. The
  // buffers hold zeros and nothing reads what arrives.
  for (Face& f : faces_)
    if (f.neighbour >= 0) backend_->zero(f.send_buffer);
  backend_->transfers().after_sweeps();  // after the zeros
  device_send(0, layout_.dims);
  backend_->transfers().wait();
}

template <typename T>
void HaloExchange<T>::device_send(int first, int last) {
  std::vector<DeviceMessage<T>> sends, receives;
  for (int axis = first; axis < last; ++axis) {
    Face& lo = faces_[2 * axis];
    Face& hi = faces_[2 * axis + 1];
    for (Face* f : {&lo, &hi})
      if (f->neighbour >= 0)
        sends.push_back(
            {f->send_buffer.data(), static_cast<std::size_t>(f->send.cells()), f->neighbour});
    // Messages between two ranks match in the order they are listed. A rank's low face goes
    // to its low neighbour's high halo: listing the receives high before low matches the
    // sends' low before high when both faces of an axis pair with one rank (two ranks on a
    // periodic axis), as MPI's tags keep them apart.
    for (Face* f : {&hi, &lo})
      if (f->neighbour >= 0)
        receives.push_back(
            {f->recv_buffer.data(), static_cast<std::size_t>(f->recv.cells()), f->neighbour});
  }
  device_->exchange(sends, receives);
}

template <typename T>
void HaloExchange<T>::post_axis(Buffer<T>& field, int axis) {
  Face& lo = faces_[2 * axis];
  Face& hi = faces_[2 * axis + 1];
  for (Face* f : {&hi, &lo}) {
    if (f->neighbour < 0) continue;
    // The other landing than the last exchange's: its upload may still be queued. The one
    // before that was uploaded by the time the last exchange waited for its packing.
    f->landing = 1 - f->landing;
    T* landing = direct_ ? f->recv_buffer.data() : f->recv_staged[f->landing].data();
    comm_.irecv(landing, bytes_of(f->recv, sizeof(T)), f->neighbour,
                f == &hi ? tag_downward(axis) : tag_upward(axis), pending_);
  }
  for (Face* f : {&lo, &hi}) {
    if (f->neighbour < 0) continue;
    backend_->transfers().pack_box(field, layout_, f->send, f->send_buffer);
    if (!direct_)
      backend_->transfers().download(f->send_staged.data(), f->send_buffer, f->send.cells());
  }
}

template <typename T>
void HaloExchange<T>::send_axis(int axis) {
  Face& lo = faces_[2 * axis];
  Face& hi = faces_[2 * axis + 1];
  for (Face* f : {&lo, &hi}) {
    if (f->neighbour < 0) continue;
    const T* message = direct_ ? f->send_buffer.data() : f->send_staged.data();
    comm_.isend(message, bytes_of(f->send, sizeof(T)), f->neighbour,
                f == &lo ? tag_downward(axis) : tag_upward(axis), pending_);
  }
}

template <typename T>
void HaloExchange<T>::deliver_axis(Buffer<T>& field, int axis) {
  for (int side = 0; side < 2; ++side) {
    Face& f = faces_[2 * axis + side];
    if (f.neighbour < 0) continue;
    if (!direct_)
      backend_->transfers().upload(f.recv_buffer, f.recv_staged[f.landing].data(), f.recv.cells());
    backend_->transfers().unpack_box(field, layout_, f.recv, f.recv_buffer);
  }
}

template <typename T>
void HaloExchange<T>::refill_edges(Buffer<T>& field, int axis) {
  if (!edges_ || !ghosts_) return;
  HaloFillArgs<T> one = *ghosts_;
  one.field = field.data();
  one.edge_mask = 0;
  for (int face = 0; face < 6; ++face) {
    if (face / 2 != axis) one.faces[face] = GhostFace<T>{};
    // Halos of the axes exchanged before this one: their edge ghosts read what arrived.
    if (face / 2 < axis && faces_[face].neighbour >= 0) one.edge_mask |= 1u << face;
  }
  if (one.any() && one.edge_mask != 0) backend_->transfers().fill_halo(one);
}

template <typename T>
void HaloExchange<T>::device_axes(Buffer<T>& field, int first, int last) {
  for (int axis = first; axis < last; ++axis)
    for (int side = 0; side < 2; ++side) {
      Face& f = faces_[2 * axis + side];
      if (f.neighbour >= 0) backend_->transfers().pack_box(field, layout_, f.send, f.send_buffer);
    }
  device_send(first, last);
  for (int axis = first; axis < last; ++axis)
    for (int side = 0; side < 2; ++side) {
      Face& f = faces_[2 * axis + side];
      if (f.neighbour >= 0) backend_->transfers().unpack_box(field, layout_, f.recv, f.recv_buffer);
    }
}

template <typename T>
void HaloExchange<T>::wait_for_faces() {
  auto t0 = std::chrono::steady_clock::now();
  backend_->transfers().wait();
  lap(t0, times_.faces_ready);
}

template <typename T>
void HaloExchange<T>::wait_unless_staged() {
  // A receive lands straight in recv_buffer when MPI reads backend memory: the next exchange's
  // receives must wait for this one's unpacking. Staged faces land in the other landing.
  if (direct_) backend_->transfers().wait();
}

template <typename T>
void HaloExchange<T>::start(Buffer<T>& field) {
  started_ = 0;
  sent_ = false;
  if (!active_) return;
  auto t0 = std::chrono::steady_clock::now();
  // The faces are packed from what the sweeps and ghost fills enqueued so far.
  backend_->transfers().after_sweeps();
  if (device_) {
    // The whole exchange on the transfer queue, beside the interior sweep: with edges axis by
    // axis, each axis's physical ghosts refilled beside the halo that arrived before it (the
    // queue keeps the order); without, every axis in one group.
    if (edges_) {
      for (int axis = 0; axis < layout_.dims; ++axis) {
        refill_edges(field, axis);
        if (has_axis(axis)) device_axes(field, axis, axis + 1);
      }
    } else {
      device_axes(field, 0, layout_.dims);
    }
    started_ = layout_.dims;
    sent_ = true;
    lap(t0, times_.exchange);
    return;
  }
  for (int axis = 0; axis < layout_.dims; ++axis) {
    if (!has_axis(axis)) continue;
    post_axis(field, axis);
    started_ = axis + 1;
    // Edge ghosts travel with the next axis's faces: it must wait for this one's halo.
    if (edges_) break;
  }
  // Host-memory faces are packed on return: send them now, so they travel during the sweep.
  // Device faces are still being packed; finish() sends them (the host must not wait here,
  // before the interior sweep is enqueued).
  if (backend_->host_memory()) {
    for (int axis = 0; axis < started_; ++axis) send_axis(axis);
    sent_ = true;
  }
  lap(t0, times_.exchange);
}

template <typename T>
void HaloExchange<T>::finish(Buffer<T>& field) {
  if (!active_) return;
  if (device_) {
    // start() enqueued everything: the later sweeps wait for it on the device, not the host.
    auto t0 = std::chrono::steady_clock::now();
    backend_->transfers().before_sweeps();
    lap(t0, times_.exchange);
    return;
  }
  if (!sent_) wait_for_faces();
  auto t0 = std::chrono::steady_clock::now();
  if (!sent_)
    for (int axis = 0; axis < started_; ++axis) send_axis(axis);
  comm_.wait_all(pending_);
  for (int axis = 0; axis < started_; ++axis) deliver_axis(field, axis);
  lap(t0, times_.exchange);
  for (int axis = started_; axis < layout_.dims; ++axis) {
    // This axis's physical ghosts beside the halo just delivered, before its faces carry them.
    refill_edges(field, axis);
    if (!has_axis(axis)) continue;
    // Packed after the earlier axes' halo is unpacked (the transfer queue keeps the order).
    post_axis(field, axis);
    backend_->transfers().wait();
    send_axis(axis);
    comm_.wait_all(pending_);
    deliver_axis(field, axis);
    lap(t0, times_.exchange);
  }
  backend_->transfers().before_sweeps();
  wait_unless_staged();
  lap(t0, times_.exchange);
}

template <typename T>
void HaloExchange<T>::exchange_axis(Buffer<T>& field, int axis) {
  if (!has_axis(axis)) return;
  auto t0 = std::chrono::steady_clock::now();
  backend_->transfers().after_sweeps();
  if (device_) {
    device_axes(field, axis, axis + 1);
    backend_->transfers().before_sweeps();
    lap(t0, times_.exchange);
    return;
  }
  post_axis(field, axis);
  backend_->transfers().wait();
  send_axis(axis);
  comm_.wait_all(pending_);
  deliver_axis(field, axis);
  backend_->transfers().before_sweeps();
  wait_unless_staged();
  lap(t0, times_.exchange);
}

template <typename T>
std::string HaloExchange<T>::path() const {
  if (device_) return kNccl;
  if (!backend_ || backend_->host_memory()) return kHostMemory;
  return parallel::mpi_cuda_aware() ? kCudaAware : kStaged;
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace fdsolve
