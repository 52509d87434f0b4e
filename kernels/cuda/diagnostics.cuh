// The CUDA diagnostics of a check (diagnostics.cu): the device buffers they reuse from check to
// check, and the one call CudaBackend::diagnose makes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "diagnostics.hpp"

namespace fdsolve::cuda {

struct DiagResult;  // device-side totals, histogram and CDF (diagnostics.cu)

/// Device memory for diagnose, allocated on first use and kept: the per-block partials (grown
/// to the largest grid seen), the result block and its pinned host copy, the scan's temporary
/// storage, and, only once a check has found non-finite values, the select's temporary
/// storage and one chunk of selected indices (kSelectChunk nodes, whatever the field size).
class DiagnosticsWorkspace {
 public:
  explicit DiagnosticsWorkspace(int sm_count);
  ~DiagnosticsWorkspace();
  DiagnosticsWorkspace(const DiagnosticsWorkspace&) = delete;
  DiagnosticsWorkspace& operator=(const DiagnosticsWorkspace&) = delete;

  /// Diagnostics of `prev` -> `cur` (device pointers of `layout`) over the owned nodes and
  /// `updated`, enqueued on `stream`; returns when the results are on the host.
  template <typename T>
  Diagnostics diagnose(const T* prev, const T* cur, const Layout& layout, const Box& updated,
                       cudaStream_t stream);

 private:
  template <typename T>
  void locate_nonfinite(const T* cur, const Layout& layout, std::int64_t count, Diagnostics& out,
                        cudaStream_t stream);
  void* grow(void*& buffer, std::size_t& capacity, std::size_t bytes, cudaStream_t stream);

  int sm_count_;
  DiagResult* result_ = nullptr;       // device
  DiagResult* host_result_ = nullptr;  // pinned host copy
  void* partials_ = nullptr;
  std::size_t partials_bytes_ = 0;
  void* scan_temp_ = nullptr;
  std::size_t scan_temp_bytes_ = 0;
  void* select_temp_ = nullptr;
  std::size_t select_temp_bytes_ = 0;
  long long* selected_ = nullptr;        // one chunk of linear node indices
  long long* selected_count_ = nullptr;  // device
  long long* host_selected_ = nullptr;   // pinned: count, then up to kMaxNonfiniteLocations
};

}  // namespace fdsolve::cuda
