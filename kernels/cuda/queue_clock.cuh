// The CUDA backend's QueueClock (backend.hpp): events recorded on its stream, so that work is
// timed where the GPU runs it and the host never waits to read a clock.
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "backend.hpp"

namespace fdsolve::cuda {

/// A clock of `stream` (which must outlive it).
std::unique_ptr<QueueClock> make_queue_clock(cudaStream_t stream);

}  // namespace fdsolve::cuda
