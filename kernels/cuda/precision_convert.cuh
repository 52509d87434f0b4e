// The two passes between a double field and a float one that mixed-precision multigrid needs
// (MixedPrecision::narrow_difference, MixedPrecision::add_widened), over the nodes of a box of fields in
// different layouts: each element read and written once.
#pragma once

#include <cuda_runtime.h>

#include "layout.hpp"

namespace fdsolve::cuda {

/// out = float(a - b) on `box` (a, b in `from`, out in `to`; b null: float(a)), enqueued on
/// `stream`.
template <typename T>
void launch_narrow_difference(const T* a, const T* b, const Layout& from, float* out,
                              const Layout& to, const Box& box, cudaStream_t stream);

/// u += T(e) on `box` (u in `to`, e in `from`), enqueued on `stream`.
template <typename T>
void launch_add_widened(T* u, const Layout& to, const float* e, const Layout& from,
                        const Box& box, cudaStream_t stream);

}  // namespace fdsolve::cuda
