// The stream that carries halo packing and copies beside the sweeps, and the two events that
// order it against the sweeps' stream. It has the device's highest priority: its small kernels
// take SMs as soon as a block of the sweep retires (NVIDIA's mpi_overlap sample gives its
// boundary work the same priority).
#pragma once

#include <cuda_runtime.h>

namespace fdsolve::cuda {

class TransferStream {
 public:
  TransferStream();
  ~TransferStream();  // waits for its work
  TransferStream(const TransferStream&) = delete;
  TransferStream& operator=(const TransferStream&) = delete;

  cudaStream_t stream() const { return stream_; }

  /// Work enqueued here from now on starts after what `sweeps` holds now.
  void after(cudaStream_t sweeps);
  /// Work enqueued on `sweeps` from now on starts after what this stream holds now.
  void before(cudaStream_t sweeps);
  /// Waits on the host for this stream's work.
  void wait();

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t sweeps_done_ = nullptr, transfers_done_ = nullptr;
};

}  // namespace fdsolve::cuda
