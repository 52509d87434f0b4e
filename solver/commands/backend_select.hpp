// Chooses the backend a run uses (auto: CUDA when a device is present) and creates it.
#pragma once

#include <memory>
#include <string>

#include "backend.hpp"
#include "case.hpp"

namespace fdsolve {

/// True for CUDA. `auto` falls back to the CPU (and says why in the log); `cuda` without a
/// usable device throws BackendError naming the reason.
bool use_cuda(BackendChoice choice);

/// The backend; with CUDA, device `device` modulo the devices present (a rank passes its
/// index on its node, so the ranks of a node take one GPU each).
template <typename T>
std::unique_ptr<Backend<T>> make_backend(bool cuda, int device = 0);

}  // namespace fdsolve
