// The device exchange (backend_capabilities.hpp) of the CUDA backend through NCCL: grouped
// ncclSend / ncclRecv on the transfer queue's stream. Built only where CMake found NCCL
// (FDSOLVE_HAVE_NCCL); without it the CUDA backend offers no device exchange.
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "backend_capabilities.hpp"

namespace fdsolve::cuda {

/// The device exchange of device `device` on `stream` (the transfer queue's, which must outlive
/// it).
template <typename T>
std::unique_ptr<DeviceExchange<T>> make_nccl_exchange(int device, const cudaUUID_t& uuid,
                                                      cudaStream_t stream);

}  // namespace fdsolve::cuda
