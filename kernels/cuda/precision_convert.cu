// Elementwise passes between precisions (precision_convert.cuh): one thread per node of a row
// (blockIdx.x over the row, blockIdx.y over the box's rows), so that neighbouring threads read
// neighbouring elements of both layouts.
#include "cuda_check.cuh"
#include "precision_convert.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxGridY = 65535;  // CUDA's limit on gridDim.y: the rest goes to z

/// The box's row geometry, by value to the kernels.
struct Rows {
  long long lo[3];
  long long nx, ny;  // nodes per row, rows per plane
  long long rows;    // rows in all
};

Rows rows_of(const Box& box) {
  const long long ny = box.hi[1] - box.lo[1];
  return {{box.lo[0], box.lo[1], box.lo[2]}, box.hi[0] - box.lo[0], ny,
          ny * (box.hi[2] - box.lo[2])};
}

/// Element offset of node (i, j, k) in layout (pitch, plane, origin).
struct Offsets {
  long long pitch, plane, origin;
  __device__ long long at(long long i, long long j, long long k) const {
    return origin + k * plane + j * pitch + i;
  }
};

Offsets offsets_of(const Layout& L) { return {L.pitch, L.plane, L.origin}; }

template <typename T>
__global__ void narrow_difference_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                         Offsets from, float* __restrict__ out, Offsets to,
                                         Rows r) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.z) * kMaxGridY + blockIdx.y;
  if (i >= r.nx || row >= r.rows) return;
  const long long x = r.lo[0] + i, y = r.lo[1] + row % r.ny, z = r.lo[2] + row / r.ny;
  const long long s = from.at(x, y, z);
  out[to.at(x, y, z)] = static_cast<float>(b ? a[s] - b[s] : a[s]);
}

template <typename T>
__global__ void add_widened_kernel(T* __restrict__ u, Offsets to, const float* __restrict__ e,
                                   Offsets from, Rows r) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.z) * kMaxGridY + blockIdx.y;
  if (i >= r.nx || row >= r.rows) return;
  const long long x = r.lo[0] + i, y = r.lo[1] + row % r.ny, z = r.lo[2] + row / r.ny;
  u[to.at(x, y, z)] += static_cast<T>(e[from.at(x, y, z)]);
}

/// One block row per box row, the rows over y and z (65535 each: far beyond any field).
dim3 grid_of(const Box& box) {
  const Rows r = rows_of(box);
  return dim3(static_cast<unsigned>((r.nx + kThreads - 1) / kThreads),
              static_cast<unsigned>(r.rows < kMaxGridY ? r.rows : kMaxGridY),
              static_cast<unsigned>((r.rows + kMaxGridY - 1) / kMaxGridY));
}

}  // namespace

template <typename T>
void launch_narrow_difference(const T* a, const T* b, const Layout& from, float* out,
                              const Layout& to, const Box& box, cudaStream_t stream) {
  if (box.empty()) return;
  narrow_difference_kernel<<<grid_of(box), kThreads, 0, stream>>>(
      a, b, offsets_of(from), out, offsets_of(to), rows_of(box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_add_widened(T* u, const Layout& to, const float* e, const Layout& from,
                        const Box& box, cudaStream_t stream) {
  if (box.empty()) return;
  add_widened_kernel<<<grid_of(box), kThreads, 0, stream>>>(u, offsets_of(to), e,
                                                            offsets_of(from), rows_of(box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template void launch_narrow_difference<float>(const float*, const float*, const Layout&, float*,
                                              const Layout&, const Box&, cudaStream_t);
template void launch_narrow_difference<double>(const double*, const double*, const Layout&,
                                               float*, const Layout&, const Box&, cudaStream_t);
template void launch_add_widened<float>(float*, const Layout&, const float*, const Layout&,
                                        const Box&, cudaStream_t);
template void launch_add_widened<double>(double*, const Layout&, const float*, const Layout&,
                                         const Box&, cudaStream_t);

}  // namespace fdsolve::cuda
