// The unchecked sweep of the flux operator's face form, marching: each thread owns one column of
// nodes along the last axis (y in 2D, z in 3D) over a run of kMarchRun nodes, keeping the
// values it shares with the next node in registers (u below, at and above; the lower face
// coefficient). The checked sweep of the 3D face form without per-node arrays marches too, over
// a bounded grid whose blocks each reduce their nodes' statistics (flux_partial.cuh). flux.cu's
// one-thread-per-node kernel keeps the other checked sweeps and the general (Galerkin) and
// neighbour-class forms.
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

struct FluxPartial;  // flux_partial.cuh

/// Whether launch_flux_march_checked takes `args`: the face form in 3D without per-node arrays
/// (FluxOperator::step_scale, diagonal).
template <typename T>
bool flux_march_checked_applies(const SweepArgs<T>& args) {
  return flux_march_applies(args) && args.layout.dims == 3 && args.flux.step_scale == nullptr &&
         args.flux.diagonal == nullptr;
}

/// Enqueues the checked marching sweep of `args` (flux_march_checked_applies, a box that is not
/// empty) on `stream` over at most `max_per_sm` blocks per SM of `sm_count` (and no more than are
/// resident), each writing its share of the statistics to partials[block]; returns the number of
/// blocks.
template <typename T>
long long launch_flux_march_checked(const SweepArgs<T>& args, FluxPartial* partials,
                                    int sm_count, int max_per_sm, cudaStream_t stream);

}  // namespace fdsolve::cuda
