// StatsSlots (stats_slots.cuh): the buffers of checked sweeps' statistics.
#include <algorithm>
#include <string>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "stats_slots.cuh"

namespace fdsolve::cuda {

void* device_malloc(std::size_t bytes) {
  const std::size_t need = std::max<std::size_t>(bytes, 1);
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, need);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it so the backend stays usable
    std::size_t free = 0, total = 0;
    FDSOLVE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    throw BackendError("out of device memory: " + std::to_string(need) + " bytes needed, " +
                       std::to_string(free) + " bytes free");
  }
  FDSOLVE_CUDA_CHECK(err);
  return p;
}

StatsSlots::StatsSlots(int slots, cudaStream_t stream) {
  FDSOLVE_CUDA_CHECK(cudaHostAlloc(&host_, static_cast<std::size_t>(slots) * sizeof(StatsPartial),
                                   cudaHostAllocMapped));
  FDSOLVE_CUDA_CHECK(cudaHostGetDevicePointer(&mapped_, host_, 0));
  ticket_ = static_cast<unsigned*>(device_malloc(sizeof(unsigned)));
  FDSOLVE_CUDA_CHECK(cudaMemsetAsync(ticket_, 0, sizeof(unsigned), stream));
}

StatsSlots::~StatsSlots() {
  // A destructor must not throw; a sticky error surfaces at the next checked call.
  cudaFree(partials_);
  cudaFree(ticket_);
  cudaFreeHost(host_);
}

void StatsSlots::reserve(long long blocks, cudaStream_t stream) {
  const long long need = blocks + reduce_scratch_size(blocks);
  if (need <= capacity_) return;
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaFree(partials_);
  partials_ = nullptr;
  capacity_ = 0;
  partials_ = static_cast<StatsPartial*>(
      device_malloc(static_cast<std::size_t>(need) * sizeof(StatsPartial)));
  capacity_ = need;
}

}  // namespace fdsolve::cuda
