// The transfer queue beside a backend's compute queue: halo fills, packing for MPI and copies
// through host staging run on it while the sweeps run on the other, so that a sweep of a rank's
// interior runs while its faces travel. Its operations are enqueued in order and return at once;
// after_sweeps and before_sweeps order the two queues. A backend whose operations finish
// before they return (the CPU) runs each at once.
#pragma once

#include "halo_fill.hpp"
#include "layout.hpp"

namespace fdsolve {

template <typename T>
class Buffer;

template <typename T>
class TransferQueue {
 public:
  virtual ~TransferQueue() = default;
  /// Later transfer work sees everything enqueued for the sweeps so far (CUDA: an event).
  virtual void after_sweeps() = 0;
  /// Backend::fill_halo on this queue.
  virtual void fill_halo(const HaloFillArgs<T>& args) = 0;
  /// Backend::pack_box and unpack_box on this queue.
  virtual void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                        Buffer<T>& packed) = 0;
  virtual void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                          const Buffer<T>& packed) = 0;
  /// Copies between backend memory and host memory from allocate_staging: the host buffer must
  /// stay untouched until wait().
  virtual void download(T* host, const Buffer<T>& src, index_t n) = 0;
  virtual void upload(Buffer<T>& dst, const T* host, index_t n) = 0;
  /// The host waits for this queue (not for the sweeps enqueued after it).
  virtual void wait() = 0;
  /// Later sweeps see everything enqueued on this queue so far.
  virtual void before_sweeps() = 0;
  /// `n` values of host memory for staging device data through MPI and output: page-locked for
  /// CUDA, so that this queue's copies run asynchronously at full speed; plain for the CPU.
  virtual Buffer<T> allocate_staging(index_t n) = 0;
};

}  // namespace fdsolve
