// Large copies between pageable host memory and the device through two page-locked chunks: the
// device copies one chunk while the host copies the other in or out, so a copy runs near the
// link's speed instead of the driver's pageable path (which stages through its own small
// buffers, one at a time). Small copies and page-locked host memory go straight.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace fdsolve::cuda {

class StagedCopies {
 public:
  /// Copies at or above this size take the staged path.
  static constexpr std::size_t kStagedBytes = std::size_t{64} << 20;

  explicit StagedCopies(cudaStream_t stream) : stream_(stream) {}
  ~StagedCopies();
  StagedCopies(const StagedCopies&) = delete;
  StagedCopies& operator=(const StagedCopies&) = delete;

  /// `bytes` from device `src` to pageable host `dst`, after the stream's earlier work; returns
  /// when they are there.
  void to_host(void* dst, const void* src, std::size_t bytes);
  /// `bytes` from pageable host `src` to device `dst`; returns when `src` may be reused and the
  /// copy is done.
  void to_device(void* dst, const void* src, std::size_t bytes);

 private:
  static constexpr std::size_t kChunk = std::size_t{32} << 20;
  void ensure_chunks();

  cudaStream_t stream_;
  void* chunk_[2] = {nullptr, nullptr};  // page-locked, allocated at the first staged copy
  cudaEvent_t done_[2] = {nullptr, nullptr};
};

}  // namespace fdsolve::cuda
