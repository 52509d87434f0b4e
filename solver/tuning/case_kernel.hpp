// The kernel variant a case runs with on a backend, and why (kernel_choice.hpp decides).
#pragma once

#include "backend.hpp"
#include "case.hpp"
#include "kernel_choice.hpp"

namespace fdsolve {

/// The kernel variant the case runs with on `backend` and why: tuning.kernel, else the tune
/// cache's or the built-in table's winner for the grid's size class (kernel_choice.hpp), else
/// the backend's default. Logs an ignored cache's warning once.
template <typename T>
KernelChoice kernel_choice(const Case& c, const Backend<T>& backend);
/// The same from a backend's catalog, for values of `value_bytes` (4: float, 8: double).
KernelChoice kernel_choice(const Case& c, const KernelCatalog& catalog, int value_bytes);

/// The kernel variant the case runs with on `backend` (kernel_choice).
/// Throws InputError naming tuning.kernel when the backend has no such variant.
template <typename T>
KernelId choose_kernel(const Case& c, const Backend<T>& backend);

}  // namespace fdsolve
