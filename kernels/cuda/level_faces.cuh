// The CUDA backend's face build: level_faces.hpp's operations as kernels on the backend's
// stream, one thread per index (a grid-stride loop).
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "../backend.hpp"

namespace fdsolve::cuda {

/// The LevelFaceBuilder of a CUDA backend whose work runs on `stream`.
std::unique_ptr<LevelFaceBuilder> make_device_level_faces(cudaStream_t stream);

}  // namespace fdsolve::cuda
