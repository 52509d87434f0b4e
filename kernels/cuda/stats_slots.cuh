// Where checked sweeps' statistics land (CudaBackend's sweeps with stats): per-block partials
// in device memory, a ticket counting the blocks done, and host slots in mapped pinned memory,
// one per checked sweep pending at once. The last block of a checked sweep writes its total
// straight into its slot, so no device-to-host copy is queued behind the kernel; grids too large
// for one block to finish reduce their partials in a second pass and copy the total.
#pragma once

#include <cuda_runtime.h>

#include "sweep_common.cuh"
#include "variants.cuh"

namespace fdsolve::cuda {

/// Grids up to this many blocks reduce their stats in their last block (one launch, no copy);
/// larger ones (the plain kernels: ~1M blocks in 2D) would leave one block reducing megabytes,
/// which takes their checked sweeps down to 4-7% of copy (docs/performance-history.md, "Round
/// 2", item 2), so they keep the multi-block passes.
constexpr long long kFusedStatsMaxBlocks = 16384;

class StatsSlots {
 public:
  /// `slots` host slots; the ticket is zeroed on `stream`.
  StatsSlots(int slots, cudaStream_t stream);
  ~StatsSlots();
  StatsSlots(const StatsSlots&) = delete;
  StatsSlots& operator=(const StatsSlots&) = delete;

  /// Slot `slot`'s total, once the stream that finished it is synchronized.
  const StatsPartial& host(int slot) const { return host_[slot]; }

  /// Launches a checked kernel of `blocks` blocks through `launch(StatsSink)` on `stream` and
  /// brings its total to slot `slot`: by the last block where that is fast, else by a reduction
  /// of the partials. Pieces enqueued one after another reuse the partials and the ticket in
  /// turn.
  template <typename Launch>
  void finish(long long blocks, int slot, Launch&& launch, cudaStream_t stream) {
    reserve(blocks, stream);
    if (blocks <= kFusedStatsMaxBlocks) {
      launch(StatsSink(partials_, ticket_, mapped_ + slot));
      return;
    }
    launch(StatsSink(partials_, nullptr, nullptr));
    const StatsPartial* total = reduce_partials(partials_, partials_ + blocks, blocks, stream);
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host_ + slot, total, sizeof(StatsPartial),
                                       cudaMemcpyDeviceToHost, stream));
  }

 private:
  /// Grows the partials buffer (per-block partials plus reduce scratch); shrinking never
  /// happens, so a steady run allocates once.
  void reserve(long long blocks, cudaStream_t stream);

  StatsPartial* host_ = nullptr;    // mapped pinned memory, read after the sync
  StatsPartial* mapped_ = nullptr;  // its device address
  unsigned* ticket_ = nullptr;      // blocks finished in the running checked sweep
  StatsPartial* partials_ = nullptr;
  long long capacity_ = 0;
};

}  // namespace fdsolve::cuda
