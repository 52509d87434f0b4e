// The optional capabilities of a backend, each an object the backend has or lacks
// (Backend::flux_operations, Backend::mixed_precision, Backend::bottom_levels_call,
// Backend::device_exchange), so that a
// solver asks for what it needs once, when it is built, and a backend without it is found
// then, with a message naming the capability, not by a method that throws mid-run.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bottom_levels.hpp"
#include "exact_sum.hpp"
#include "flux_operator.hpp"
#include "flux_transfer.hpp"
#include "galerkin.hpp"
#include "galerkin_product.hpp"
#include "layout.hpp"
#include "level_faces.hpp"

namespace fdsolve {

template <typename T>
class Backend;
template <typename T>
class Buffer;

/// The vector operations and transfers of the variable-coefficient operator
/// (flux_operator.hpp): what conjugate gradients and the flux-form multigrid need beyond sweeps.
template <typename T>
class FluxOperations {
 public:
  virtual ~FluxOperations() = default;
  /// y = a x + b y on the box's nodes that are not held, enqueued.
  virtual void combine(const LinearCombinationArgs<T>& args) = 0;
  /// The volume-weighted inner product's terms over args' box, each scaled by 2^scale and
  /// rounded, summed exactly (exact_sum.hpp), with the largest term; returned when known.
  virtual DotPartial dot_terms(const DotArgs<T>& args, int scale) = 0;
  /// One axis of the flux-continuous transfers between levels (flux_transfer.hpp), enqueued.
  virtual void transfer_axis(const AxisTransferArgs<T>& args) = 0;
  /// One step of building a Galerkin coarse operator (galerkin.hpp: collapse, held rows, or
  /// probing), enqueued.
  virtual void galerkin(const GalerkinArgs<T>& args) = 0;
  /// The coarse rows of a Galerkin operator R A P formed row by row (galerkin_product.hpp),
  /// enqueued.
  virtual void galerkin_product(const GalerkinProductArgs<T>& args) = 0;
};

/// The flux operator's face arrays built where the fields live (level_faces.hpp): dense
/// arrays in the backend's memory and the build's operations on them, enqueued in order on the
/// backend's queue (CUDA: its stream). Output arrays (`T*`) are the backend's buffers of any
/// precision on the same memory.
class LevelFaceBuilder {
 public:
  virtual ~LevelFaceBuilder() = default;
  /// `n` doubles (or marks) in the backend's memory holding `host`'s values where it is given
  /// (the CPU takes host as it is, without a copy: the caller keeps it alive), else unset.
  virtual Buffer<double> dense(index_t n, const double* host = nullptr) = 0;
  virtual Buffer<std::uint8_t> marks(index_t n, const std::uint8_t* host = nullptr) = 0;
  virtual void run(const CoarseNodes& op) = 0;
  virtual void run(const AveragedFaces& op) = 0;
  virtual void run(const LayoutFaces<float>& op) = 0;
  virtual void run(const LayoutFaces<double>& op) = 0;
  virtual void run(const NodeTerms<float>& op) = 0;
  virtual void run(const NodeTerms<double>& op) = 0;
  virtual void run(const WriteHeld<float>& op) = 0;
  virtual void run(const WriteHeld<double>& op) = 0;
  /// Marks the held nodes and returns how many it marked (when the work before it is done).
  virtual index_t run(const MarkHeld<float>& op) = 0;
  virtual index_t run(const MarkHeld<double>& op) = 0;
  virtual void run(const NonzeroMarks& op) = 0;
  /// out[0..n) = value.
  virtual void fill(float* out, index_t n, float value) = 0;
  virtual void fill(double* out, index_t n, double value) = 0;
  /// Copies the first `n` marks of `marks` to `host`; returns when they are there.
  virtual void download(std::uint8_t* host, const Buffer<std::uint8_t>& marks, index_t n) = 0;
  /// Keeps `device`, equal to the host array `host` of device.size() values (a field evaluated
  /// in the backend's memory and brought back), for the next dense(device.size(), host), which
  /// takes it instead of copying the host's values over (kept_copies.hpp); the caller keeps
  /// `host` alive and unchanged meanwhile. The CPU, whose dense arrays are the host's own,
  /// keeps nothing and leaves `device` to the caller.
  virtual void keep(const double* host, Buffer<double>&& device) = 0;
  /// The backend memory that kept copies hold.
  virtual std::size_t kept_bytes() const = 0;
};

/// Mixed precision: float cycles inside a double defect correction.
template <typename T>
class MixedPrecision {
 public:
  virtual ~MixedPrecision() = default;
  /// A backend of float fields on the same device, whose memory narrow_difference and
  /// add_widened read and write. The two queue work apart: the caller synchronizes between
  /// them.
  virtual std::unique_ptr<Backend<float>> float_companion() const = 0;
  /// Enqueues out = float(a - b) on the nodes of `box` (b empty: out = float(a)): a and b in
  /// `from`'s layout, `out` (float_companion() memory) in `to`'s; out's other elements are
  /// left as they are.
  virtual void narrow_difference(const Buffer<T>& a, const Buffer<T>& b, const Layout& from,
                                 float* out, const Layout& to, const Box& box) = 0;
  /// Enqueues u += T(e) on the nodes of `box`: u in `to`'s layout, e (float_companion()
  /// memory) in `from`'s.
  virtual void add_widened(Buffer<T>& u, const Layout& to, const float* e, const Layout& from,
                           const Box& box) = 0;
};

/// Multigrid's coarsest levels visited in one call (bottom_levels.hpp): what the cycle does
/// level by level below args' first level (smoothing, restriction, the bottom solve,
/// correction), enqueued and ordered before later work (CUDA: one launch of one thread block).
template <typename T>
class BottomLevelsCall {
 public:
  virtual ~BottomLevelsCall() = default;
  virtual void bottom_levels(const BottomLevelsArgs<T>& args) = 0;
};

/// One message of a device exchange: `count` values at `data` (backend memory) to or from the
/// rank `peer` of the exchange's ranks.
template <typename T>
struct DeviceMessage {
  T* data = nullptr;
  std::size_t count = 0;
  int peer = -1;
};

/// Point-to-point messages between the backends of several ranks straight from device memory
/// (CUDA: NCCL), enqueued on the transfer queue's stream: no host wait, no host copy. The
/// ranks are the solver's (it obtains the unique id from rank 0 and hands it to every rank;
/// the kernels know no MPI). The communicator ends with the backend.
template <typename T>
class DeviceExchange {
 public:
  virtual ~DeviceExchange() = default;
  /// The library and its version, e.g. "NCCL 2.28.9".
  virtual std::string library() const = 0;
  /// The device's identity (its UUID): ranks on one device cannot exchange this way.
  virtual std::string device_key() const = 0;
  /// A new unique id (rank 0 makes it, every rank connects with it).
  virtual std::vector<char> unique_id() = 0;
  /// Joins the communicator of `ranks` ranks as `rank`: collective, every rank calls it with
  /// rank 0's unique id.
  virtual void connect(const std::vector<char>& id, int rank, int ranks) = 0;
  virtual bool connected() const = 0;
  /// Enqueues every send and receive as one group on the transfer queue, after what it holds
  /// and before what is enqueued on it later. Messages to one peer are matched in the order
  /// they are listed: a receive list must name a peer's messages in the order that peer's
  /// send list does.
  virtual void exchange(const std::vector<DeviceMessage<T>>& sends,
                        const std::vector<DeviceMessage<T>>& receives) = 0;
};

}  // namespace fdsolve
