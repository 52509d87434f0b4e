// Checked device and page-locked allocations (device_memory.cuh).
#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>

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

namespace {

// The backend's buffers by address, for their sizes at release (a run holds a few hundred).
std::mutex g_counted_mutex;
std::unordered_map<void*, std::size_t> g_counted;
std::size_t g_counted_live = 0, g_counted_peak = 0;

}  // namespace

void* counted_device_malloc(std::size_t bytes) {
  void* p = device_malloc(bytes);
  std::lock_guard lock(g_counted_mutex);
  g_counted[p] = bytes;
  g_counted_live += bytes;
  g_counted_peak = std::max(g_counted_peak, g_counted_live);
  return p;
}

void release_counted_device(void* p) noexcept {
  if (!p) return;
  {
    std::lock_guard lock(g_counted_mutex);
    if (const auto it = g_counted.find(p); it != g_counted.end()) {
      g_counted_live -= it->second;
      g_counted.erase(it);
    }
  }
  cudaFree(p);
}

std::size_t counted_device_peak() {
  std::lock_guard lock(g_counted_mutex);
  return g_counted_peak;
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
