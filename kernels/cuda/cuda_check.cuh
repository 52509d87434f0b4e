// The one error check for CUDA calls: every failure becomes a BackendError naming the call,
// the place and the CUDA error, so sticky device errors reach the user once, clearly.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "backend.hpp"

namespace fdsolve::cuda {

/// Throws BackendError for `err` (not cudaSuccess) raised by `call` at `file`:`line`.
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file,
                                          int line) {
  throw BackendError(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                     cudaGetErrorString(err) + ") in " + call + " at " + file + ":" +
                     std::to_string(line));
}

}  // namespace fdsolve::cuda

#define FDSOLVE_CUDA_CHECK(call)                                                       \
  do {                                                                                 \
    const cudaError_t fdsolve_cuda_err_ = (call);                                      \
    if (fdsolve_cuda_err_ != cudaSuccess)                                              \
      ::fdsolve::cuda::throw_cuda_error(fdsolve_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)

/// After every kernel launch: reports bad launch configurations at once and sticky errors
/// left by earlier kernels.
#define FDSOLVE_CUDA_CHECK_LAUNCH() FDSOLVE_CUDA_CHECK(cudaGetLastError())
