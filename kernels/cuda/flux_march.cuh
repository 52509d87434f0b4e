// The unchecked sweep of the flux operator's face form, marching: each thread owns one column of
// nodes along the last axis (y in 2D, z in 3D) over a run of kMarchRun nodes, keeping the
// values it shares with the next node in registers (u below, at and above; the lower face
// coefficient). flux.cu's one-thread-per-node kernel keeps the checked sweep and the general
// (Galerkin) form.
#pragma once

#include <cuda_runtime.h>

#include "stencil.hpp"

namespace fdsolve::cuda {

/// Whether launch_flux_march takes `args`: the face form (no general stencil, no neighbour
/// classes).
template <typename T>
bool flux_march_applies(const SweepArgs<T>& args) {
  return args.flux.stencil == nullptr && args.flux.neighbour[0] == 0.0;
}

/// Enqueues the marching sweep of `args` (flux_march_applies) on `stream`.
template <typename T>
void launch_flux_march(const SweepArgs<T>& args, cudaStream_t stream);

}  // namespace fdsolve::cuda
