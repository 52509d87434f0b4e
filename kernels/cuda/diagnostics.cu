// Diagnostics of a check on the device: one pass with a warp per row builds each block's
// histogram of the update in shared memory (cub::BlockHistogram), merged once per block into
// the device histogram, and each block's sums and extremes (cub::BlockReduce), reduced in a
// fixed order by one block; cub::DeviceScan turns the histogram into the CDF; non-finite nodes
// are located by cub::DeviceSelect over node indices, a bounded chunk at a time.
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <string>

#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "diagnostics.cuh"

namespace fdsolve::cuda {

/// One block's share, and the total: sums in double, counts as integers.
struct DiagPartial {
  double sum, min, max;    // of cur over owned nodes (min/max ignore NaN, as fmin/fmax do)
  double sum_sq, max_abs;  // of d over the box; max_abs is NaN once any |d| is
  long long max_abs_at;    // linear owned-node index of max_abs (ranks_above), -1: none
  unsigned long long nonfinite;
};

/// What crosses to the host: the histogram, its CDF and the totals, in one copy.
struct DiagResult {
  unsigned long long hist[kHistBins];
  unsigned long long cdf[kHistBins];
  DiagPartial total;
};

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kIgnoredBin = kHistBins;  // fed by lanes with no update: keeps calls uniform
constexpr int kSharedBins = kHistBins + 1;
/// Node indices one select pass examines: bounds the selected-index buffer (8 MiB).
constexpr long long kSelectChunk = 1LL << 20;

/// The owned nodes as rows and the box, as plain kernel arguments.
struct Geometry {
  long long nx, ny, rows;  // owned nodes per row, rows per plane, rows in all
  long long pitch, plane, origin;
  long long lo[3], hi[3];
};

__host__ __device__ inline DiagPartial diag_identity() {
  return {0.0, __builtin_huge_val(), -__builtin_huge_val(), 0.0, 0.0, -1ll, 0ull};
}

struct DiagCombine {
  __device__ DiagPartial operator()(const DiagPartial& a, const DiagPartial& b) const {
    DiagPartial r;
    r.sum = a.sum + b.sum;
    r.min = fmin(a.min, b.min);
    r.max = fmax(a.max, b.max);
    r.sum_sq = a.sum_sq + b.sum_sq;
    const bool take_b = ranks_above(b.max_abs, b.max_abs_at, a.max_abs, a.max_abs_at);
    r.max_abs = take_b ? b.max_abs : a.max_abs;
    r.max_abs_at = take_b ? b.max_abs_at : a.max_abs_at;
    r.nonfinite = a.nonfinite + b.nonfinite;
    return r;
  }
};

using BlockReduceDiag = cub::BlockReduce<DiagPartial, kThreads, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;

/// Warp w of block b takes rows b*kWarps + w, then strides by the grid: every thread makes the
/// same number of Composite calls (rows and row lengths are uniform), lanes without an update
/// feed kIgnoredBin. The block's bins are added to `hist` once, its partial stored at
/// partials[b].
template <typename T>
__global__ void __launch_bounds__(kThreads)
    diag_blocks(const T* __restrict__ prev, const T* __restrict__ cur, Geometry g,
                DiagPartial* __restrict__ partials, unsigned long long* __restrict__ hist) {
  using BlockHist = cub::BlockHistogram<int, kThreads, 1, kSharedBins, cub::BLOCK_HISTO_ATOMIC>;
  __shared__ unsigned int bins[kSharedBins];
  __shared__ typename BlockHist::TempStorage hist_temp;
  __shared__ typename BlockReduceDiag::TempStorage reduce_temp;
  BlockHist block_hist(hist_temp);
  block_hist.InitHistogram(bins);
  __syncthreads();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  DiagPartial acc = diag_identity();
  const long long stride = static_cast<long long>(gridDim.x) * kWarps;
  for (long long base = static_cast<long long>(blockIdx.x) * kWarps; base < g.rows;
       base += stride) {
    const long long r = base + warp;
    const bool row_ok = r < g.rows;
    const long long k = row_ok ? r / g.ny : 0;
    const long long j = row_ok ? r - k * g.ny : 0;
    const bool row_in_box = row_ok && j >= g.lo[1] && j < g.hi[1] && k >= g.lo[2] && k < g.hi[2];
    const long long row = g.origin + k * g.plane + j * g.pitch;
    const long long linear = r * g.nx;  // owned-node index of (0, j, k)
    for (long long i0 = 0; i0 < g.nx; i0 += 32) {
      const long long i = i0 + lane;
      int item[1] = {kIgnoredBin};
      if (row_ok && i < g.nx) {
        const double c = static_cast<double>(cur[row + i]);
        acc.sum += c;
        acc.min = fmin(acc.min, c);
        acc.max = fmax(acc.max, c);
        acc.nonfinite += isfinite(c) ? 0ull : 1ull;
        if (row_in_box && i >= g.lo[0] && i < g.hi[0]) {
          const double d = c - static_cast<double>(prev[row + i]);
          acc.sum_sq = fma(d, d, acc.sum_sq);
          const double ad = fabs(d);
          if (ranks_above(ad, linear + i, acc.max_abs, acc.max_abs_at)) {
            acc.max_abs = ad;
            acc.max_abs_at = linear + i;
          }
          item[0] = update_bin(d);
        }
      }
      block_hist.Composite(item, bins);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kHistBins; b += kThreads)
    if (bins[b]) atomicAdd(hist + b, static_cast<unsigned long long>(bins[b]));
  const DiagPartial total = BlockReduceDiag(reduce_temp).Reduce(acc, DiagCombine{});
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

/// One block reduces the `blocks` partials: thread t takes t, t + kThreads, ... in order, then
/// CUB's fixed tree; bit-identical run to run.
__global__ void __launch_bounds__(kThreads)
    diag_finish(const DiagPartial* __restrict__ partials, long long blocks,
                DiagPartial* __restrict__ total) {
  __shared__ typename BlockReduceDiag::TempStorage temp;
  const DiagCombine combine;
  DiagPartial acc = diag_identity();
  for (long long e = threadIdx.x; e < blocks; e += kThreads) acc = combine(acc, partials[e]);
  const DiagPartial grand = BlockReduceDiag(temp).Reduce(acc, combine);
  if (threadIdx.x == 0) *total = grand;
}

/// Select predicate over linear owned-node indices (C order: x fastest).
template <typename T>
struct NonfiniteNode {
  const T* cur;
  long long nx, ny, pitch, plane, origin;
  __device__ bool operator()(long long n) const {
    const long long i = n % nx, r = n / nx;
    const long long j = r % ny, k = r / ny;
    return !isfinite(cur[origin + k * plane + j * pitch + i]);
  }
};

long long ceil_div_ll(long long a, long long b) { return (a + b - 1) / b; }

template <typename U>
U* member_at(DiagResult* r, std::size_t offset) {  // device address arithmetic, no access
  return reinterpret_cast<U*>(reinterpret_cast<char*>(r) + offset);
}

}  // namespace

DiagnosticsWorkspace::DiagnosticsWorkspace(int sm_count) : sm_count_(sm_count) {
  result_ = static_cast<DiagResult*>(device_malloc(sizeof(DiagResult), "diagnostics"));
  FDSOLVE_CUDA_CHECK(cudaMallocHost(&host_result_, sizeof(DiagResult)));
  unsigned long long* hist = member_at<unsigned long long>(result_, offsetof(DiagResult, hist));
  unsigned long long* cdf = member_at<unsigned long long>(result_, offsetof(DiagResult, cdf));
  FDSOLVE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, scan_temp_bytes_, hist, cdf, kHistBins));
  scan_temp_ = device_malloc(scan_temp_bytes_, "diagnostics");
}

DiagnosticsWorkspace::~DiagnosticsWorkspace() {
  // Destructors must not throw; a sticky error surfaces at the next checked call.
  cudaFree(result_);
  cudaFreeHost(host_result_);
  cudaFree(partials_);
  cudaFree(scan_temp_);
  cudaFree(select_temp_);
  cudaFree(selected_);
  cudaFree(selected_count_);
  cudaFreeHost(host_selected_);
}

void* DiagnosticsWorkspace::grow(void*& buffer, std::size_t& capacity, std::size_t bytes,
                                 cudaStream_t stream) {
  if (bytes <= capacity) return buffer;
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));  // nothing queued still uses the old one
  cudaFree(buffer);
  buffer = nullptr;
  capacity = 0;
  buffer = device_malloc(bytes, "diagnostics");
  capacity = bytes;
  return buffer;
}

template <typename T>
Diagnostics DiagnosticsWorkspace::diagnose(const T* prev, const T* cur, const Layout& L,
                                           const Box& box, cudaStream_t stream) {
  check_diagnose_box(L, box);
  Diagnostics out;
  out.nodes = L.owned_cells();
  out.updated = box.cells();

  const Geometry g{L.n[0],
                   L.n[1],
                   L.n[1] * L.n[2],
                   L.pitch,
                   L.plane,
                   L.origin,
                   {box.lo[0], box.lo[1], box.lo[2]},
                   {box.hi[0], box.hi[1], box.hi[2]}};
  int per_sm = 0;
  FDSOLVE_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, diag_blocks<T>, kThreads, 0));
  // One wave of blocks, more if a block's 32-bit shared counters could overflow: a block
  // feeds ceil(groups / blocks) * ceil(nx / 32) * kThreads samples to its bins.
  const long long groups = ceil_div_ll(g.rows, kWarps);
  const long long per_group = ceil_div_ll(g.nx, 32) * kThreads;
  const long long kMaxSamples = 1LL << 32;
  long long blocks = std::min<long long>(groups, std::max(per_sm, 1) * sm_count_);
  while (blocks < groups && ceil_div_ll(groups, blocks) * per_group >= kMaxSamples)
    blocks = std::min(groups, 2 * blocks);
  if (per_group >= kMaxSamples || blocks > 0x7fffffffLL)
    throw BackendError("diagnose: a grid of " + std::to_string(g.nx) + " x " +
                       std::to_string(g.rows) + " nodes is too large for the histogram");

  auto* partials = static_cast<DiagPartial*>(grow(
      partials_, partials_bytes_, static_cast<std::size_t>(blocks) * sizeof(DiagPartial), stream));
  unsigned long long* hist = member_at<unsigned long long>(result_, offsetof(DiagResult, hist));
  unsigned long long* cdf = member_at<unsigned long long>(result_, offsetof(DiagResult, cdf));
  DiagPartial* total = member_at<DiagPartial>(result_, offsetof(DiagResult, total));

  FDSOLVE_CUDA_CHECK(cudaMemsetAsync(hist, 0, sizeof(DiagResult::hist), stream));
  diag_blocks<T>
      <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(prev, cur, g, partials, hist);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  diag_finish<<<1, kThreads, 0, stream>>>(partials, blocks, total);
  FDSOLVE_CUDA_CHECK_LAUNCH();
  std::size_t scan_bytes = scan_temp_bytes_;
  FDSOLVE_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(scan_temp_, scan_bytes, hist, cdf, kHistBins, stream));
  FDSOLVE_CUDA_CHECK(
      cudaMemcpyAsync(host_result_, result_, sizeof(DiagResult), cudaMemcpyDeviceToHost, stream));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));

  const DiagPartial& t = host_result_->total;
  out.min = t.min;
  out.max = t.max;
  out.nonfinite = static_cast<std::int64_t>(t.nonfinite);
  out.sum_sq = t.sum_sq;
  out.linf = t.max_abs;
  if (t.max_abs_at >= 0) out.linf_at = owned_node(L, t.max_abs_at);
  for (int b = 0; b < kHistBins; ++b) {
    out.histogram[b] = static_cast<std::int64_t>(host_result_->hist[b]);
    out.cdf[b] = static_cast<std::int64_t>(host_result_->cdf[b]);
  }
  const double sum = t.sum;
  if (out.nonfinite > 0) locate_nonfinite(cur, L, out.nonfinite, out, stream);
  out.finish(sum);
  return out;
}

template <typename T>
void DiagnosticsWorkspace::locate_nonfinite(const T* cur, const Layout& L, std::int64_t count,
                                            Diagnostics& out, cudaStream_t stream) {
  if (!selected_) {
    selected_ =
        static_cast<long long*>(device_malloc(kSelectChunk * sizeof(long long), "diagnostics"));
    selected_count_ = static_cast<long long*>(device_malloc(sizeof(long long), "diagnostics"));
    FDSOLVE_CUDA_CHECK(
        cudaMallocHost(&host_selected_, (1 + kMaxNonfiniteLocations) * sizeof(long long)));
  }
  const long long nodes = L.owned_cells();
  const long long want = std::min<long long>(count, kMaxNonfiniteLocations);
  const NonfiniteNode<T> pred{cur, L.n[0], L.n[1], L.pitch, L.plane, L.origin};
  long long found = 0;
  // Chunks in C order until enough are found; the select is stable, so each chunk's first
  // selected indices are its lowest.
  for (long long first = 0; first < nodes && found < want; first += kSelectChunk) {
    const long long n = std::min(kSelectChunk, nodes - first);
    const thrust::counting_iterator<long long> in(first);
    std::size_t bytes = 0;
    FDSOLVE_CUDA_CHECK(
        cub::DeviceSelect::If(nullptr, bytes, in, selected_, selected_count_, n, pred, stream));
    grow(select_temp_, select_temp_bytes_, bytes, stream);
    FDSOLVE_CUDA_CHECK(cub::DeviceSelect::If(select_temp_, bytes, in, selected_, selected_count_, n,
                                             pred, stream));
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host_selected_, selected_count_, sizeof(long long),
                                       cudaMemcpyDeviceToHost, stream));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    const long long take = std::min(host_selected_[0], want - found);
    if (take <= 0) continue;
    FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host_selected_ + 1, selected_, take * sizeof(long long),
                                       cudaMemcpyDeviceToHost, stream));
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (long long s = 0; s < take; ++s)
      out.nonfinite_at.push_back(owned_node(L, host_selected_[1 + s]));
    found += take;
  }
}

template Diagnostics DiagnosticsWorkspace::diagnose<float>(const float*, const float*,
                                                           const Layout&, const Box&, cudaStream_t);
template Diagnostics DiagnosticsWorkspace::diagnose<double>(const double*, const double*,
                                                            const Layout&, const Box&,
                                                            cudaStream_t);

}  // namespace fdsolve::cuda
