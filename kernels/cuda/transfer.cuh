// Device grid transfers behind CudaBackend::restrict_to_coarse / prolong_add.
#pragma once

#include <cuda_runtime.h>

#include "bottom_cg.hpp"
#include "bottom_levels.hpp"
#include "flux_transfer.hpp"
#include "galerkin.hpp"
#include "galerkin_product.hpp"
#include "transfer.hpp"

namespace fdsolve::cuda {

/// Enqueues the restriction of `args` on `stream` (one thread per coarse node).
template <typename T>
void launch_restrict(const TransferArgs<T>& args, cudaStream_t stream);

/// Enqueues the prolongation-with-correction of `args` on `stream` (one thread per fine node).
template <typename T>
void launch_prolong_add(const TransferArgs<T>& args, cudaStream_t stream);

/// Enqueues the cubic prolongation-with-correction of `args` (one thread per fine node).
template <typename T>
void launch_prolong_cubic_add(const TransferArgs<T>& args, cudaStream_t stream);

/// Enqueues the fused residual-and-restriction of `args` (one thread per coarse node).
template <typename T>
void launch_restrict_residual(const ResidualRestrictArgs<T>& args, cudaStream_t stream);

/// Enqueues one axis of the variable-coefficient transfers (one thread per node of args.to).
template <typename T>
void launch_transfer_axis(const AxisTransferArgs<T>& args, cudaStream_t stream);

/// Enqueues one step of building a Galerkin coarse operator (one thread per owned node).
template <typename T>
void launch_galerkin(const GalerkinArgs<T>& args, cudaStream_t stream);
/// Enqueues the coarse rows of R A P (galerkin_product.hpp), one thread per row.
template <typename T>
void launch_galerkin_product(const GalerkinProductArgs<T>& args, cudaStream_t stream);

/// Enqueues the bottom solve of `args` (bottom_cg.hpp) as one thread block on `stream`.
template <typename T>
void launch_bottom_solve(const BottomSolveArgs<T>& args, cudaStream_t stream);

/// Enqueues multigrid's bottom levels in one call (bottom_levels.hpp) as one launch of one
/// thread block on `stream`.
template <typename T>
void launch_bottom_levels(const BottomLevelsArgs<T>& args, cudaStream_t stream);

}  // namespace fdsolve::cuda
