// The CPU (OpenMP) diagnostics of a check: the reference the CUDA diagnostics are tested against.
#pragma once

#include "../diagnostics.hpp"

namespace fdsolve::cpu {

/// Diagnostics of `prev` -> `cur` (both with `layout`) over the owned nodes and the box
/// `updated`, which must lie inside them (std::invalid_argument otherwise). Rows are reduced
/// in fixed chunks merged in order, so the result does not depend on the thread count.
template <typename T>
Diagnostics diagnose(const T* prev, const T* cur, const Layout& layout, const Box& updated);

}  // namespace fdsolve::cpu
