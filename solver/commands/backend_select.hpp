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

/// Starts compiling the case's formulas (NVRTC) for the architecture this build's kernels
/// target first, before anything starts the CUDA driver, where a GPU is likely (a backend other
/// than cpu, beside an NVIDIA device node): the compiles then overlap the driver's start as
/// well as the context's creation (run_typed's compile_formulas_ahead finds them where the
/// device is of that architecture, and compiles for its own where not).
void compile_formulas_early(const Case& c);

/// The backend; with CUDA, device `device` modulo the devices present (a rank passes its
/// index on its node, so the ranks of a node take one GPU each).
template <typename T>
std::unique_ptr<Backend<T>> make_backend(bool cuda, int device = 0);

}  // namespace fdsolve
