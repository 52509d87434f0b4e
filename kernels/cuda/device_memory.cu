// Checked device and page-locked allocations (device_memory.cuh).
#include <algorithm>
#include <string>

#include "backend.hpp"
#include "cuda_check.cuh"
#include "device_memory.cuh"

namespace fdsolve::cuda {

void* device_malloc(std::size_t bytes, const char* purpose) {
  const std::size_t need = std::max<std::size_t>(bytes, 1);
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, need);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it so the backend stays usable
    std::size_t free = 0, total = 0;
    FDSOLVE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    throw BackendError(std::string("out of device memory") +
                       (purpose ? std::string(" for ") + purpose : std::string()) + ": " +
                       std::to_string(need) + " bytes needed, " + std::to_string(free) +
                       " bytes free");
  }
  FDSOLVE_CUDA_CHECK(err);
  return p;
}

void* pinned_malloc(std::size_t bytes, const char* purpose) {
  const std::size_t need = std::max<std::size_t>(bytes, 1);
  void* p = nullptr;
  const cudaError_t err = cudaHostAlloc(&p, need, cudaHostAllocDefault);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw BackendError("out of page-locked host memory: " + std::to_string(need) +
                       " bytes needed for " + purpose);
  }
  FDSOLVE_CUDA_CHECK(err);
  return p;
}

}  // namespace fdsolve::cuda
