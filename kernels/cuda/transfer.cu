// Multigrid's grid transfers on the device: one thread per destination node, x fastest so a
// warp reads and writes contiguous rows; the per-node arithmetic is transfer.hpp's, shared with
// the CPU.
#include "cuda_check.cuh"
#include "transfer.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kBX = 64;
constexpr int kBY = 4;

/// The destination box as plain scalars (Box's std::arrays are host-only).
struct DevBox {
  index_t lo[3], hi[3];
};

DevBox dev_box(const Box& b) {
  return {{b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}};
}

/// The destination box as a 3D grid of kBX x kBY blocks, one z plane per blockIdx.z.
dim3 box_grid(const Box& b) {
  return dim3(static_cast<unsigned>((b.extent(0) + kBX - 1) / kBX),
              static_cast<unsigned>((b.extent(1) + kBY - 1) / kBY),
              static_cast<unsigned>(b.extent(2)));
}

template <typename T>
__global__ void __launch_bounds__(kBX* kBY) restrict_kernel(const T* fine, T* coarse, GridStrides F,
                                                            GridStrides C, DevBox b, T scale) {
  const index_t I = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t J = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t K = b.lo[2] + blockIdx.z;
  if (I >= b.hi[0] || J >= b.hi[1]) return;
  coarse[C.at(I, J, K)] = restrict_node(fine, F, I, J, K, scale);
}

/// prolong_add on nested halving levels: a thread per coarse cell adds the interpolation to the
/// cell's fine nodes (2I..2I+1, 2J..2J+1, 2K..2K+1) inside the box, loading the cell's coarse
/// values once instead of up to eight times a fine node; each node's sum is prolong_node's, in
/// its order. `cells`: the coarse cells whose fine nodes cover the box (prolong_cells).
template <typename T>
__global__ void __launch_bounds__(kBX* kBY) prolong_kernel(const T* coarse, T* fine, GridStrides F,
                                                           GridStrides C, DevBox b, DevBox cells) {
  const index_t I = cells.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t J = cells.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t K = cells.lo[2] + blockIdx.z;
  if (I >= cells.hi[0] || J >= cells.hi[1]) return;
  const bool three = C.dims == 3;
  const index_t base = C.at(I, J, three ? K : 0);
  // v[dz][dy][dx]: the coarse node at (I + dx, J + dy, K + dz), read where a node needs it.
  const bool x1 = 2 * I + 1 < b.hi[0], y1 = 2 * J + 1 < b.hi[1], z1 = three && 2 * K + 1 < b.hi[2];
  T v[2][2][2];
#pragma unroll
  for (int dz = 0; dz < 2; ++dz)
#pragma unroll
    for (int dy = 0; dy < 2; ++dy)
#pragma unroll
      for (int dx = 0; dx < 2; ++dx)
        v[dz][dy][dx] = (dx && !x1) || (dy && !y1) || (dz && !z1)
                            ? T(0)
                            : coarse[base + dz * C.plane + dy * C.pitch + dx];
#pragma unroll
  for (int oz = 0; oz < 2; ++oz) {
    if (oz && !three) break;
    const index_t k = three ? 2 * K + oz : 0;
    if (three && (k < b.lo[2] || k >= b.hi[2])) continue;
#pragma unroll
    for (int oy = 0; oy < 2; ++oy) {
      const index_t j = 2 * J + oy;
      if (j < b.lo[1] || j >= b.hi[1]) continue;
#pragma unroll
      for (int ox = 0; ox < 2; ++ox) {
        const index_t i = 2 * I + ox;
        if (i < b.lo[0] || i >= b.hi[0]) continue;
        const auto row = [&](int dz, int dy) {
          return ox ? v[dz][dy][0] + v[dz][dy][1] : v[dz][dy][0];
        };
        const auto plane = [&](int dz) { return oy ? row(dz, 0) + row(dz, 1) : row(dz, 0); };
        const T sum = oz ? plane(0) + plane(1) : plane(0);
        const int odd = ox + oy + oz;
        const T weight = odd == 0 ? T(1) : odd == 1 ? T(0.5) : odd == 2 ? T(0.25) : T(0.125);
        fine[F.at(i, j, k)] += weight * sum;
      }
    }
  }
}

/// The coarse cells whose fine nodes cover fine box b (prolong_kernel's threads).
DevBox prolong_cells(const Box& b, int dims) {
  DevBox c{};
  for (int a = 0; a < 3; ++a) {
    const bool halves = a < dims;
    c.lo[a] = halves ? b.lo[a] >> 1 : b.lo[a];
    c.hi[a] = halves ? ((b.hi[a] - 1) >> 1) + 1 : b.hi[a];
  }
  return c;
}

/// One axis of the variable-coefficient transfers (flux_transfer.hpp).
template <typename T, bool Restrict>
__global__ void __launch_bounds__(kBX* kBY) axis_transfer_kernel(AxisTransferPlain<T> p,
                                                                 GridStrides to, DevBox b) {
  const index_t i = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t j = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t k = b.lo[2] + blockIdx.z;
  if (i >= b.hi[0] || j >= b.hi[1]) return;
  axis_transfer_store(p, to.at(i, j, k), axis_transfer_node(p, i, j, k, Restrict));
}

/// One step of building a Galerkin coarse operator (galerkin.hpp).
template <typename T>
__global__ void __launch_bounds__(kBX* kBY) galerkin_kernel(GalerkinPlain<T> p, DevBox b) {
  const index_t i = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t j = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t k = b.lo[2] + blockIdx.z;
  if (i >= b.hi[0] || j >= b.hi[1]) return;
  galerkin_node(p, i, j, k);
}

/// The coarse rows of R A P (galerkin_product.hpp), one thread per row.
template <typename T>
__global__ void __launch_bounds__(kBX* kBY)
    galerkin_product_kernel(GalerkinProductPlain<T> p, DevBox b) {
  const index_t i = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t j = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t k = b.lo[2] + blockIdx.z;
  if (i >= b.hi[0] || j >= b.hi[1]) return;
  galerkin_product_rows<1>(p, i, i + 1, j, k);
}

/// The transfers between grids that do not nest (transfer_ratio.hpp).
template <typename T>
__global__ void __launch_bounds__(kBX* kBY)
    restrict_ratio_kernel(const T* fine, T* coarse, GridStrides F, GridStrides C,
                          TransferRatio R, DevBox b, T scale) {
  const index_t I = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t J = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t K = b.lo[2] + blockIdx.z;
  if (I >= b.hi[0] || J >= b.hi[1]) return;
  coarse[C.at(I, J, K)] = restrict_ratio_node(fine, F, R, I, J, K, scale);
}

template <typename T>
__global__ void __launch_bounds__(kBX* kBY)
    prolong_ratio_kernel(const T* coarse, T* fine, GridStrides F, GridStrides C, TransferRatio R,
                         DevBox b) {
  const index_t i = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t j = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t k = b.lo[2] + blockIdx.z;
  if (i >= b.hi[0] || j >= b.hi[1]) return;
  fine[F.at(i, j, k)] += prolong_ratio_node(coarse, C, R, i, j, k);
}

template <typename T>
__global__ void __launch_bounds__(kBX* kBY) prolong_cubic_kernel(const T* coarse, T* fine,
                                                                 GridStrides F, CoarseFold C,
                                                                 DevBox b) {
  const index_t i = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t j = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t k = b.lo[2] + blockIdx.z;
  if (i >= b.hi[0] || j >= b.hi[1]) return;
  fine[F.at(i, j, k)] += prolong_cubic_node(coarse, C, i, j, k);
}

template <int Points, typename T>
__global__ void __launch_bounds__(kBX* kBY)
    restrict_residual_kernel(const T* u, const T* g, T g0, FineFold F, TypedWeights<T> w,
                             T* coarse, GridStrides C, DevBox b, T scale) {
  const index_t I = b.lo[0] + blockIdx.x * static_cast<index_t>(kBX) + threadIdx.x;
  const index_t J = b.lo[1] + blockIdx.y * static_cast<index_t>(kBY) + threadIdx.y;
  const index_t K = b.lo[2] + blockIdx.z;
  if (I >= b.hi[0] || J >= b.hi[1]) return;
  coarse[C.at(I, J, K)] = restrict_residual_node<Points>(u, g, g0, F, w, I, J, K, scale);
}

template <int Points, typename T>
void launch_residual_points(const ResidualRestrictArgs<T>& a, cudaStream_t stream) {
  restrict_residual_kernel<Points, T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
      a.u, a.g, static_cast<T>(a.g_constant), fine_fold(a.fine, a.rules), typed<T>(a.residual),
      a.to, strides_of(a.coarse), dev_box(a.box), static_cast<T>(a.scale));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <typename T>
void launch_prolong_cubic_add(const TransferArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  prolong_cubic_kernel<T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
      a.from, a.to, strides_of(a.fine), coarse_fold(a.coarse, a.rules), dev_box(a.box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_restrict_residual(const ResidualRestrictArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  if (a.fine.dims == 2) return launch_residual_points<5>(a, stream);
  switch (a.residual.points) {
    case 7:
      return launch_residual_points<7>(a, stream);
    case 19:
      return launch_residual_points<19>(a, stream);
    default:
      return launch_residual_points<27>(a, stream);
  }
}

template <typename T>
void launch_restrict(const TransferArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  if (!a.ratio.halves(a.fine.dims)) {
    restrict_ratio_kernel<T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
        a.from, a.to, strides_of(a.fine), strides_of(a.coarse), a.ratio, dev_box(a.box),
        static_cast<T>(a.scale));
    FDSOLVE_CUDA_CHECK_LAUNCH();
    return;
  }
  restrict_kernel<T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
      a.from, a.to, strides_of(a.fine), strides_of(a.coarse), dev_box(a.box),
      static_cast<T>(a.scale));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_prolong_add(const TransferArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  if (!a.ratio.halves(a.fine.dims)) {
    prolong_ratio_kernel<T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
        a.from, a.to, strides_of(a.fine), strides_of(a.coarse), a.ratio, dev_box(a.box));
    FDSOLVE_CUDA_CHECK_LAUNCH();
    return;
  }
  const DevBox cells = prolong_cells(a.box, a.fine.dims);
  const dim3 grid(static_cast<unsigned>((cells.hi[0] - cells.lo[0] + kBX - 1) / kBX),
                  static_cast<unsigned>((cells.hi[1] - cells.lo[1] + kBY - 1) / kBY),
                  static_cast<unsigned>(cells.hi[2] - cells.lo[2]));
  prolong_kernel<T><<<grid, dim3(kBX, kBY), 0, stream>>>(
      a.from, a.to, strides_of(a.fine), strides_of(a.coarse), dev_box(a.box), cells);
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_transfer_axis(const AxisTransferArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  const AxisTransferPlain<T> p = axis_transfer_plain(a);
  if (a.restrict)
    axis_transfer_kernel<T, true><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
        p, strides_of(a.to_layout), dev_box(a.box));
  else
    axis_transfer_kernel<T, false><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
        p, strides_of(a.to_layout), dev_box(a.box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_galerkin(const GalerkinArgs<T>& a, cudaStream_t stream) {
  const Box owned = a.layout.owned_box();
  if (owned.empty()) return;
  galerkin_kernel<T><<<box_grid(owned), dim3(kBX, kBY), 0, stream>>>(galerkin_plain(a),
                                                                     dev_box(owned));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_galerkin_product(const GalerkinProductArgs<T>& a, cudaStream_t stream) {
  if (a.box.empty()) return;
  galerkin_product_kernel<T><<<box_grid(a.box), dim3(kBX, kBY), 0, stream>>>(
      galerkin_product_plain(a), dev_box(a.box));
  FDSOLVE_CUDA_CHECK_LAUNCH();
}

template void launch_galerkin_product<float>(const GalerkinProductArgs<float>&, cudaStream_t);
template void launch_galerkin_product<double>(const GalerkinProductArgs<double>&, cudaStream_t);
template void launch_galerkin<float>(const GalerkinArgs<float>&, cudaStream_t);
template void launch_galerkin<double>(const GalerkinArgs<double>&, cudaStream_t);
template void launch_transfer_axis<float>(const AxisTransferArgs<float>&, cudaStream_t);
template void launch_transfer_axis<double>(const AxisTransferArgs<double>&, cudaStream_t);
template void launch_restrict<float>(const TransferArgs<float>&, cudaStream_t);
template void launch_restrict<double>(const TransferArgs<double>&, cudaStream_t);
template void launch_prolong_cubic_add<float>(const TransferArgs<float>&, cudaStream_t);
template void launch_prolong_cubic_add<double>(const TransferArgs<double>&, cudaStream_t);
template void launch_restrict_residual<float>(const ResidualRestrictArgs<float>&, cudaStream_t);
template void launch_restrict_residual<double>(const ResidualRestrictArgs<double>&,
                                               cudaStream_t);
template void launch_prolong_add<float>(const TransferArgs<float>&, cudaStream_t);
template void launch_prolong_add<double>(const TransferArgs<double>&, cudaStream_t);

}  // namespace fdsolve::cuda
