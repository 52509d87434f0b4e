// Packing boxes of a device field for the halo exchange: one thread per packed value, in the
// order of PackGeometry::element (the CPU backend's order).
#include "cuda_check.cuh"
#include "halo_fill.cuh"
#include "halo_pack.hpp"

namespace fdsolve::cuda {
namespace {

constexpr int kPackBlock = 256;

template <typename T>
__global__ void pack_kernel(const T* field, PackGeometry g, index_t count, T* packed) {
  const index_t n = static_cast<index_t>(blockIdx.x) * kPackBlock + threadIdx.x;
  if (n < count) packed[n] = field[g.element(n)];
}

template <typename T>
__global__ void unpack_kernel(T* field, PackGeometry g, index_t count, const T* packed) {
  const index_t n = static_cast<index_t>(blockIdx.x) * kPackBlock + threadIdx.x;
  if (n < count) field[g.element(n)] = packed[n];
}

unsigned blocks_for(index_t count) {
  return static_cast<unsigned>((count + kPackBlock - 1) / kPackBlock);
}

}  // namespace

template <typename T>
void enqueue_pack_box(const T* field, const Layout& L, const Box& box, T* packed,
                      cudaStream_t stream) {
  const PackGeometry g = pack_geometry(L, box);
  if (g.count() == 0) return;
  pack_kernel<T><<<blocks_for(g.count()), kPackBlock, 0, stream>>>(field, g, g.count(), packed);
  FDSOLVE_CUDA_CHECK(cudaGetLastError());
}

template <typename T>
void pack_box(const T* field, const Layout& L, const Box& box, T* packed, cudaStream_t stream) {
  enqueue_pack_box(field, L, box, packed, stream);
  // The packed face may go to MPI (or a download on another path) right after this returns.
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <typename T>
void unpack_box(T* field, const Layout& L, const Box& box, const T* packed, cudaStream_t stream) {
  const PackGeometry g = pack_geometry(L, box);
  if (g.count() == 0) return;
  unpack_kernel<T><<<blocks_for(g.count()), kPackBlock, 0, stream>>>(field, g, g.count(), packed);
  FDSOLVE_CUDA_CHECK(cudaGetLastError());
}

template void enqueue_pack_box<float>(const float*, const Layout&, const Box&, float*,
                                      cudaStream_t);
template void enqueue_pack_box<double>(const double*, const Layout&, const Box&, double*,
                                       cudaStream_t);
template void pack_box<float>(const float*, const Layout&, const Box&, float*, cudaStream_t);
template void pack_box<double>(const double*, const Layout&, const Box&, double*, cudaStream_t);
template void unpack_box<float>(float*, const Layout&, const Box&, const float*, cudaStream_t);
template void unpack_box<double>(double*, const Layout&, const Box&, const double*, cudaStream_t);

}  // namespace fdsolve::cuda
