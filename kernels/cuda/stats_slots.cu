// StatsSlots (stats_slots.cuh): the buffers of checked sweeps' statistics.
#include <algorithm>
#include <string>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "stats_slots.cuh"

namespace fdsolve::cuda {

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
