// Device and page-locked host allocations that name a shortfall, and the deleters Buffer uses
// to give them back. Every allocation of the CUDA backend goes through here, so an exhausted
// device reads the same everywhere: what was needed, what was free, and the device still usable.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace fdsolve::cuda {

/// cudaMalloc of `bytes` (at least 1). On a shortfall, a BackendError "out of device memory
/// [for <purpose>]: N bytes needed, M bytes free"; the error is cleared, the device stays usable.
void* device_malloc(std::size_t bytes, const char* purpose = nullptr);

/// cudaHostAlloc of `bytes` (at least 1) page-locked host memory; a shortfall is a
/// BackendError naming `purpose` and the bytes.
void* pinned_malloc(std::size_t bytes, const char* purpose);

/// device_malloc for the backend's buffers (Backend::allocate), counted: their bytes live now
/// and the most at once (Backend::peak_allocated). Released by free_counted_device.
void* counted_device_malloc(std::size_t bytes);
/// Gives back a counted buffer (any other pointer is only freed). Never throws.
void release_counted_device(void* p) noexcept;
/// The most bytes the counted buffers of the process held at once.
std::size_t counted_device_peak();

/// Buffer deleters. They must not throw: a sticky error surfaces at the next checked call.
template <typename T>
void free_counted_device(T* p) {
  release_counted_device(p);
}
template <typename T>
void free_device(T* p) {
  cudaFree(p);
}
template <typename T>
void free_pinned(T* p) {
  cudaFreeHost(p);
}

}  // namespace fdsolve::cuda
