// Halo filling on the device: one launch per axis covers both faces of that axis (x, then y,
// then z, so edge and corner ghosts combine the rules of the faces that meet there), and the
// host-to-device write of a box of boundary values.
#include "cuda_check.cuh"
#include "halo_fill.cuh"

namespace fdsolve::cuda {
namespace {

constexpr int kFillBlockX = 128;

template <typename T>
__global__ void fill_axis_kernel(T* u, HaloAxis h, GhostFace<T> lo_face, GhostFace<T> hi_face) {
  const index_t p = h.p_lo + static_cast<index_t>(blockIdx.x) * kFillBlockX + threadIdx.x;
  const index_t q = h.q_lo + static_cast<index_t>(blockIdx.y);
  if (p >= h.p_hi || !h.fills(p, q)) return;
  // blockIdx.z picks the face: 0 the min face, 1 the max face (skipped when it has no rule).
  const int side = static_cast<int>(blockIdx.z);
  // Field by field: a reference to one of two kernel parameters made every thread copy both to
  // local memory (a 144-160 byte stack frame, ptxas sm_90), which cost more DRAM traffic than
  // the ghosts themselves.
  const GhostRule rule = side == 0 ? lo_face.rule : hi_face.rule;
  if (rule == GhostRule::None) return;
  fill_ghost(u, h, side, rule, side == 0 ? lo_face.offset : hi_face.offset,
             side == 0 ? lo_face.offsets : hi_face.offsets, p, q);
}

}  // namespace

template <typename T>
void launch_fill_halo(const HaloFillArgs<T>& args, cudaStream_t stream) {
  for (int axis = 0; axis < args.layout.dims; ++axis) {
    const GhostFace<T>& lo = args.faces[2 * axis];
    const GhostFace<T>& hi = args.faces[2 * axis + 1];
    if (lo.rule == GhostRule::None && hi.rule == GhostRule::None) continue;
    const HaloAxis h = fill_axis(args, axis);
    if (h.p_hi <= h.p_lo || h.q_hi <= h.q_lo) continue;
    const dim3 grid(static_cast<unsigned>((h.p_hi - h.p_lo + kFillBlockX - 1) / kFillBlockX),
                    static_cast<unsigned>(h.q_hi - h.q_lo), 2);
    fill_axis_kernel<T><<<grid, kFillBlockX, 0, stream>>>(args.field, h, lo, hi);
    FDSOLVE_CUDA_CHECK(cudaGetLastError());
  }
}

template <typename T>
void write_box(T* field, const Layout& L, const Box& box, const T* values, cudaStream_t stream) {
  if (box.empty()) return;
  // The box's first node as (x, row, plane) of the padded allocation.
  const index_t first = L.at(box.lo[0], box.lo[1], box.lo[2]);
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<T*>(values), box.extent(0) * sizeof(T),
                                 box.extent(0), box.extent(1));
  p.dstPtr = make_cudaPitchedPtr(field, L.pitch * sizeof(T), L.pitch, L.plane / L.pitch);
  p.dstPos = make_cudaPos((first % L.pitch) * sizeof(T), (first % L.plane) / L.pitch,
                          first / L.plane);
  p.extent = make_cudaExtent(box.extent(0) * sizeof(T), box.extent(1), box.extent(2));
  p.kind = cudaMemcpyHostToDevice;
  FDSOLVE_CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));
  FDSOLVE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template void launch_fill_halo<float>(const HaloFillArgs<float>&, cudaStream_t);
template void launch_fill_halo<double>(const HaloFillArgs<double>&, cudaStream_t);
template void write_box<float>(float*, const Layout&, const Box&, const float*, cudaStream_t);
template void write_box<double>(double*, const Layout&, const Box&, const double*, cudaStream_t);

}  // namespace fdsolve::cuda
