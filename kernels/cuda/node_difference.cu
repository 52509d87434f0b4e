// Richardson's shared-node differences on the device (see node_difference.cuh).
#include <vector>

#include "cuda_check.cuh"
#include "device_memory.cuh"
#include "node_difference.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kRowThreads = 128;

/// The shared nodes' geometry in plain numbers (std::array is host-only): the fields' owned
/// node (0, 0, 0), their row and plane strides, and the coarse box.
template <typename T>
struct RowGeometry {
  const T* fine;
  const T* coarse;
  index_t fine_pitch, fine_plane, coarse_pitch, coarse_plane;
  index_t i0, i1, j0, k0, ey, stride;
};

template <typename T>
__global__ void row_differences(RowGeometry<T> g, double* sum_sq, double* max) {
  const index_t r = blockIdx.x;
  const index_t J = g.j0 + r % g.ey, K = g.k0 + r / g.ey;
  const T* fine = g.fine + g.stride * (K * g.fine_plane + J * g.fine_pitch);
  const T* coarse = g.coarse + K * g.coarse_plane + J * g.coarse_pitch;
  double s = 0, m = 0;
  for (index_t I = g.i0 + threadIdx.x; I < g.i1; I += kRowThreads) {
    const double d = static_cast<double>(fine[g.stride * I]) - static_cast<double>(coarse[I]);
    s = fma(d, d, s);
    m = isnan(d) || isnan(m) ? NAN : fmax(m, fabs(d));
  }
  __shared__ double ss[kRowThreads], sm[kRowThreads];
  ss[threadIdx.x] = s;
  sm[threadIdx.x] = m;
  __syncthreads();
  for (int half = kRowThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      ss[threadIdx.x] += ss[threadIdx.x + half];
      const double o = sm[threadIdx.x + half];
      sm[threadIdx.x] = isnan(o) || isnan(sm[threadIdx.x]) ? NAN : fmax(sm[threadIdx.x], o);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    sum_sq[r] = ss[0];
    max[r] = sm[0];
  }
}

}  // namespace

NodeDifferenceWorkspace::~NodeDifferenceWorkspace() {
  if (partial_) cudaFree(partial_);  // no throw from a destructor
}

template <typename T>
NodeDifference NodeDifferenceWorkspace::run(const SharedNodesArgs<T>& args, cudaStream_t stream) {
  const Box& b = args.coarse_box;
  const index_t rows = b.extent(1) * b.extent(2);
  if (rows == 0 || b.extent(0) == 0) return {};
  if (2 * rows > capacity_) {
    FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (partial_) FDSOLVE_CUDA_CHECK(cudaFree(partial_));
    partial_ = nullptr;
    capacity_ = 0;
    partial_ = static_cast<double*>(
        device_malloc(2 * rows * sizeof(double), "the shared-node difference"));
    capacity_ = 2 * rows;
  }
  const RowGeometry<T> g{args.fine + args.fine_layout.origin,
                         args.coarse + args.coarse_layout.origin,
                         args.fine_layout.pitch,
                         args.fine_layout.plane,
                         args.coarse_layout.pitch,
                         args.coarse_layout.plane,
                         b.lo[0],
                         b.hi[0],
                         b.lo[1],
                         b.lo[2],
                         b.extent(1),
                         args.stride};
  row_differences<T><<<static_cast<unsigned>(rows), kRowThreads, 0, stream>>>(g, partial_,
                                                                            partial_ + rows);
  FDSOLVE_CUDA_CHECK(cudaGetLastError());
  std::vector<double> host(static_cast<std::size_t>(2 * rows));
  FDSOLVE_CUDA_CHECK(cudaMemcpyAsync(host.data(), partial_, host.size() * sizeof(double),
                                     cudaMemcpyDeviceToHost, stream));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<double> sum_sq(host.begin(), host.begin() + rows),
      max(host.begin() + rows, host.end());
  return merge_rows(sum_sq, max, b.extent(0));
}

template NodeDifference NodeDifferenceWorkspace::run<float>(const SharedNodesArgs<float>&,
                                                            cudaStream_t);
template NodeDifference NodeDifferenceWorkspace::run<double>(const SharedNodesArgs<double>&,
                                                             cudaStream_t);

}  // namespace fdsolve::cuda
