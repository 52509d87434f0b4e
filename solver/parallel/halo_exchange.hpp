// The halo-exchange step of the solver loop: neighbouring ranks' face layers fill the one-node
// halo before each sweep. On one rank there is no neighbour and it does nothing; the physical
// faces' ghosts (Neumann, periodic) are filled by Boundaries.
//
// Two ways to use it:
// - start() and finish() around a sweep of the interior (the nodes that read no exchanged
//   halo): the faces travel while the interior is swept (SplitSweep, parallel/split_sweep.hpp).
//   The physical ghosts must be filled before start() (Boundaries::before_sweep without the
//   halo); the exchange refills those beside another rank's halo once it has arrived
//   (set_ghost_rules), which a sweep of the interior never reads.
// - exchange_axis() axis by axis, interleaved with the physical ghosts of each axis
//   (Boundaries::before_sweep with the halo), blocking.
// Either way every halo node a sweep reads ends up equal to the one-rank halo at the same
// global node, so fields are bit-identical on any number of ranks.
//
// The faces travel one of two ways (docs/parallel.md, "Transports"). Where the backend's device
// exchange is connected (parallel/transport.hpp: NCCL between GPUs), packing, the grouped
// messages and unpacking are all enqueued on the transfer queue and the host never waits:
// start() enqueues the whole exchange, finish() orders the later sweeps after it. Otherwise
// nonblocking MPI moves them, from host memory (the CPU, a CUDA-aware MPI) or staged through
// page-locked host buffers, and the host waits for the packing and the messages.
#pragma once

#include <array>
#include <string>

#include "backend.hpp"
#include "parallel/comm.hpp"
#include "parallel/decomposition.hpp"

namespace fdsolve {

/// Where the time of the exchanges went, in host seconds since construction.
struct ExchangeTimes {
  double faces_ready = 0;  // waiting for the faces to be packed (on a GPU: for earlier sweeps)
  double exchange = 0;     // packing, staging copies, MPI and its waits, unpacking
};

template <typename T>
class HaloExchange {
 public:
  /// One rank: nothing to exchange.
  explicit HaloExchange(const Layout& layout) : layout_(layout) {}
  /// The rank `d.rank` of a decomposition: buffers for each face shared with another rank.
  /// `edges`: the stencil reads edge and corner ghosts (19 and 27 points), so an axis's faces
  /// may only leave once the earlier axes' halo has arrived (they carry it along); without
  /// edges every axis travels at once.
  HaloExchange(const Layout& layout, Backend<T>& backend, const parallel::Comm& comm,
               const parallel::Decomposition& d, bool edges = true);

  /// Starts filling the halo of `field` on the faces shared with other ranks: posts the
  /// receives, packs the faces that may leave now and, where MPI can read them already (host
  /// memory), sends them. Returns without waiting for any message.
  void start(Buffer<T>& field);
  /// Completes what start() began and exchanges the remaining axes; later sweeps see the halo.
  void finish(Buffer<T>& field);
  /// The physical faces' ghost rules (Boundaries::ghost_rules, which must outlive this): with
  /// edges, finish() refills each axis's ghosts beside the halo of the axes exchanged before
  /// it, as one rank fills them (a periodic wrap evaluates a Neumann gradient at the halo's own
  /// coordinate, which differs from the neighbour's).
  void set_ghost_rules(const HaloFillArgs<T>& rules) { ghosts_ = &rules; }
  /// Both at once: the halo complete on return.
  void exchange(Buffer<T>& field) {
    start(field);
    finish(field);
  }
  /// Both faces of one axis, blocking: 2 messages. The in-face extent includes the halo of the
  /// axes before it, so exchanging x, then y, then z also fills edge and corner ghosts.
  void exchange_axis(Buffer<T>& field, int axis);

  /// Whether any face is shared with another rank.
  bool active() const { return active_; }
  /// Whether face `face` (x_min, x_max, ...) is filled by another rank.
  bool exchanged(int face) const { return faces_[face].neighbour >= 0; }
  /// How the faces travel: "host memory", "device memory through NCCL", "device memory
  /// (CUDA-aware MPI)" or "device memory staged through pinned host buffers".
  std::string path() const;
  const Layout& layout() const { return layout_; }
  const ExchangeTimes& times() const { return times_; }

 private:
  struct Face {
    int neighbour = -1;
    Box send, recv;                        // the owned layer sent, the halo layer received
    Buffer<T> send_buffer, recv_buffer;    // backend memory
    // Page-locked host copies when MPI cannot read backend memory. Two landings for the
    // received face, used in turn: a message may land in one while the upload from the other
    // (the exchange before) is still queued, so finish() need not wait for its uploads.
    Buffer<T> send_staged;
    std::array<Buffer<T>, 2> recv_staged;
    int landing = 0;  // recv_staged's index the last posted receive lands in
  };
  bool has_axis(int axis) const {
    return faces_[2 * axis].neighbour >= 0 || faces_[2 * axis + 1].neighbour >= 0;
  }
  /// Posts the receives of `axis`'s faces and enqueues the packing of its sends.
  void post_axis(Buffer<T>& field, int axis);
  /// Sends `axis`'s packed faces (the packing must be complete).
  void send_axis(int axis);
  /// Enqueues the received faces of `axis` onto the halo of `field`.
  void deliver_axis(Buffer<T>& field, int axis);
  /// The transfer queue done: the faces are packed (and staged) for MPI.
  void wait_for_faces();
  /// The end of an exchange: waits for the unpacking where the next receive would overwrite
  /// what it reads.
  void wait_unless_staged();
  /// Enqueues `axis`'s physical ghosts beside the earlier axes' exchanged halo.
  void refill_edges(Buffer<T>& field, int axis);
  /// The device exchange: enqueues packing the faces of axes [first, last), their messages as
  /// one group and unpacking them, all on the transfer queue.
  /// The device exchange's first message to each neighbour, in the set-up (see the .cpp).
  void connect_neighbours();
  /// The faces of axes first..last-1 from their send buffers into their receive buffers, as
  /// one device exchange.
  void device_send(int first, int last);
  void device_axes(Buffer<T>& field, int first, int last);

  Layout layout_;
  Backend<T>* backend_ = nullptr;
  parallel::Comm comm_;
  std::array<Face, 6> faces_{};
  parallel::Requests pending_;
  const HaloFillArgs<T>* ghosts_ = nullptr;  // the physical faces' rules
  DeviceExchange<T>* device_ = nullptr;        // the backend's, where connected
  bool active_ = false;
  bool edges_ = true;
  bool direct_ = true;    // MPI reads backend memory itself
  int started_ = 0;       // axes (0..dims) posted by start(); the rest wait for finish()
  bool sent_ = false;     // start() already sent what it posted
  ExchangeTimes times_;
};

/// The exchange path a run over several ranks takes for a backend whose buffers are
/// (`host_memory`) or are not host memory (through NCCL once parallel::connect_transport
/// connected the run's backend); the words of HaloExchange::path().
std::string exchange_path(bool host_memory);
/// The transport of an exchange path, summary.json's `parallel.transport`: "nccl",
/// "mpi from device memory", "mpi staged through host" or "host memory".
std::string exchange_transport(const std::string& path);

}  // namespace fdsolve
