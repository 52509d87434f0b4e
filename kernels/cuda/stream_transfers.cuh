// The CUDA transfer queue (transfer_queue.hpp): every operation is enqueued on a TransferStream,
// the high-priority stream beside the sweeps' (transfer_stream.cuh), and returns at once.
#pragma once

#include <cuda_runtime.h>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "halo_fill.cuh"
#include "transfer_stream.cuh"

namespace fdsolve::cuda {

template <typename T>
class StreamTransfers final : public TransferQueue<T> {
 public:
  /// `sweeps`: the backend's compute stream, which after_sweeps and before_sweeps order
  /// this queue against.
  explicit StreamTransfers(cudaStream_t sweeps) : sweeps_(sweeps) {}

  void after_sweeps() override { transfer_.after(sweeps_); }
  void fill_halo(const HaloFillArgs<T>& args) override {
    launch_fill_halo(args, transfer_.stream());
  }
  void pack_box(const Buffer<T>& field, const Layout& layout, const Box& box,
                Buffer<T>& packed) override {
    enqueue_pack_box(field.data(), layout, box, packed.data(), transfer_.stream());
  }
  void unpack_box(Buffer<T>& field, const Layout& layout, const Box& box,
                  const Buffer<T>& packed) override {
    cuda::unpack_box(field.data(), layout, box, packed.data(), transfer_.stream());
  }
  void download(T* host, const Buffer<T>& src, index_t n) override {
    FDSOLVE_CUDA_CHECK(
        cudaMemcpyAsync(host, src.data(), bytes(n), cudaMemcpyDeviceToHost, transfer_.stream()));
  }
  void upload(Buffer<T>& dst, const T* host, index_t n) override {
    FDSOLVE_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), host, bytes(n), cudaMemcpyHostToDevice, transfer_.stream()));
  }
  void wait() override { transfer_.wait(); }
  /// The stream this queue enqueues on (the device exchange's messages go on it too).
  cudaStream_t stream() const { return transfer_.stream(); }
  void before_sweeps() override { transfer_.before(sweeps_); }
  Buffer<T> allocate_staging(index_t n) override {
    void* p = pinned_malloc(bytes(n), "staging (halo exchange or output)");
    return Buffer<T>(static_cast<T*>(p), n, &free_pinned<T>);
  }

 private:
  static std::size_t bytes(index_t n) { return static_cast<std::size_t>(n) * sizeof(T); }
  cudaStream_t sweeps_;
  TransferStream transfer_;
};

}  // namespace fdsolve::cuda
