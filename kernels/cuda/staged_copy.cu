// See staged_copy.cuh.
#include <cstring>

#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "staged_copy.cuh"

namespace fdsolve::cuda {
namespace {

/// Whether `host` is page-locked (a staging buffer of its own): the copy engine reads it
/// directly, at the link's speed.
bool page_locked(const void* host) {
  cudaPointerAttributes a{};
  FDSOLVE_CUDA_CHECK(cudaPointerGetAttributes(&a, host));
  return a.type == cudaMemoryTypeHost;
}

}  // namespace

StagedCopies::~StagedCopies() {
  for (int s = 0; s < 2; ++s) {  // a destructor must not throw
    if (done_[s]) cudaEventDestroy(done_[s]);
    if (chunk_[s]) cudaFreeHost(chunk_[s]);
  }
}

void StagedCopies::ensure_chunks() {
  for (int s = 0; s < 2; ++s) {
    if (!chunk_[s]) chunk_[s] = pinned_malloc(kChunk, "the staging of large copies");
    if (!done_[s]) FDSOLVE_CUDA_CHECK(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming));
  }
}

void StagedCopies::to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes < kStagedBytes || page_locked(dst)) {
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return;
  }
  ensure_chunks();
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
  const auto length = [&](std::size_t c) { return c + 1 < chunks ? kChunk : bytes - c * kChunk; };
  // Chunk c goes to the device's copy engine while the host copies chunk c - 1 out.
  for (std::size_t c = 0; c <= chunks; ++c) {
    if (c < chunks) {
      FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(chunk_[c % 2], in + c * kChunk, length(c),
                                         cudaMemcpyDeviceToHost, stream_));
      FDSOLVE_CUDA_CHECK(cudaEventRecord(done_[c % 2], stream_));
    }
    if (c == 0) continue;
    const std::size_t p = c - 1;
    FDSOLVE_CUDA_CHECK(cudaEventSynchronize(done_[p % 2]));
    std::memcpy(out + p * kChunk, chunk_[p % 2], length(p));
  }
}

void StagedCopies::to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes < kStagedBytes || page_locked(src)) {
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return;
  }
  ensure_chunks();
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  const std::size_t chunks = (bytes + kChunk - 1) / kChunk;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t n = c + 1 < chunks ? kChunk : bytes - c * kChunk;
    // The chunk's earlier copy to the device (chunk c - 2) must be done before it is refilled.
    if (c >= 2) FDSOLVE_CUDA_CHECK(cudaEventSynchronize(done_[c % 2]));
    std::memcpy(chunk_[c % 2], in + c * kChunk, n);
    FDSOLVE_CUDA_CHECK(
        cudaMemcpyAsync(out + c * kChunk, chunk_[c % 2], n, cudaMemcpyHostToDevice, stream_));
    FDSOLVE_CUDA_CHECK(cudaEventRecord(done_[c % 2], stream_));
  }
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace fdsolve::cuda
