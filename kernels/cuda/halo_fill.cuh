// Device halo filling and boundary-box writes behind CudaBackend::fill_halo / write_box.
#pragma once

#include <cuda_runtime.h>

#include "halo_fill.hpp"

namespace fdsolve::cuda {

/// Enqueues the halo fill of `args` on `stream`: one launch per axis with a ghost rule.
template <typename T>
void launch_fill_halo(const HaloFillArgs<T>& args, cudaStream_t stream);

/// Copies dense host `values` onto the nodes of `box` of the device `field`, then waits.
template <typename T>
void write_box(T* field, const Layout& layout, const Box& box, const T* values,
               cudaStream_t stream);

/// Packs the nodes of `box` of the device `field` into dense device `packed` and waits; and
/// the reverse, enqueued on `stream` (halo_pack.cu).
template <typename T>
void pack_box(const T* field, const Layout& layout, const Box& box, T* packed, cudaStream_t stream);
/// The same packing, enqueued without waiting (the transfer stream of an overlapped exchange).
template <typename T>
void enqueue_pack_box(const T* field, const Layout& layout, const Box& box, T* packed,
                      cudaStream_t stream);
template <typename T>
void unpack_box(T* field, const Layout& layout, const Box& box, const T* packed,
                cudaStream_t stream);

}  // namespace fdsolve::cuda
