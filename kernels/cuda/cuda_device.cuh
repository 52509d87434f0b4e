// The copy yardstick: device-to-device copy bandwidth, the reference of `fdsolve bench`.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace fdsolve::cuda {

/// Bytes read and written per second by cudaMemcpy of `nbytes` from `a` to `b` (both device
/// arrays of that size) on `stream`: the median of 10 copies after 2 warm-up ones.
double device_copy_bandwidth(char* a, char* b, std::size_t nbytes, cudaStream_t stream);

}  // namespace fdsolve::cuda
