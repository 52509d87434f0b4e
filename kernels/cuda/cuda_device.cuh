// The copy yardstick: device-to-device copy bandwidth, the reference of `fdsolve bench`; and how
// a device is named in the log.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace fdsolve::cuda {

/// Bytes read and written per second by cudaMemcpy of `nbytes` from `a` to `b` (both device
/// arrays of that size) on `stream`: the median of 10 copies after 2 warm-up ones.
double device_copy_bandwidth(char* a, char* b, std::size_t nbytes, cudaStream_t stream);

/// "<name> (sm_XY, N SMs, M GiB)", the device as the log and summary.json name it.
std::string describe_device(const cudaDeviceProp& props);

}  // namespace fdsolve::cuda
