// The variable-coefficient operator on the device (flux.cu, flux_operator.hpp): its sweep, checked
// or not, the masked linear combination and the weighted inner product of conjugate gradients,
// with the buffers their fixed-order reductions reuse.
#pragma once

#include <cuda_runtime.h>

#include "exact_sum.hpp"
#include "stencil.hpp"

namespace fdsolve::cuda {

struct FluxPartial;  // one block's share of a checked flux sweep's statistics (flux.cu)

/// Device memory for the flux operator's reductions, allocated once by the backend's
/// constructor (never during a graph capture): per-block partials for the largest grid the
/// checked sweep and the inner product launch (sm_count * a fixed number of blocks, whatever
/// the box), `slots` totals of checked sweeps and their pinned host copies, and the inner
/// product's total and its host copy.
class FluxWorkspace {
 public:
  FluxWorkspace(int sm_count, int slots);
  ~FluxWorkspace();
  FluxWorkspace(const FluxWorkspace&) = delete;
  FluxWorkspace& operator=(const FluxWorkspace&) = delete;

  /// Enqueues the sweep of args (args.flux active) on `stream`; no statistics.
  template <typename T>
  void sweep(const SweepArgs<T>& args, cudaStream_t stream);
  /// Enqueues the checked sweep: every block reduces its share over the nodes that are not
  /// held, one block reduces the shares in a fixed order, and the total is copied to host slot
  /// `slot` (read with stats() once `stream` is synchronised). args.box must not be empty.
  template <typename T>
  void sweep_with_stats(const SweepArgs<T>& args, int slot, cudaStream_t stream);
  /// The statistics of the checked sweep last enqueued for `slot`, count included.
  SweepStats stats(int slot) const;

  /// Enqueues y = a x + b y on the box's nodes that are not held.
  template <typename T>
  void combine(const LinearCombinationArgs<T>& args, cudaStream_t stream);
  /// The volume-weighted inner product's terms scaled by 2^scale, summed exactly
  /// (exact_sum.hpp); synchronises `stream`.
  template <typename T>
  DotPartial dot_terms(const DotArgs<T>& args, int scale, cudaStream_t stream);

 private:
  int sm_count_;
  int slots_;
  FluxPartial* partials_ = nullptr;      // device, one per block of the checked sweep
  FluxPartial* results_ = nullptr;       // device, one per slot
  FluxPartial* host_results_ = nullptr;  // pinned, one per slot
  DotPartial* dot_partials_ = nullptr;   // device, one per block of the inner product
  DotPartial* dot_result_ = nullptr;     // device
  DotPartial* host_dot_ = nullptr;       // pinned
};

}  // namespace fdsolve::cuda
