// Temporal blocking in the Jacobi loop: the recorded blocks of sweeps between two iterations
// that need the host (sweep_block.hpp) run as blocked smoothing passes (Backend::smooth),
// several sweeps per pass over memory, when nothing the loop does between sweeps would change
// what they compute.
#pragma once

#include <optional>
#include <stdexcept>

#include "backend.hpp"
#include "case.hpp"
#include "case_reader.hpp"

namespace fdsolve {

/// The blocked variant of `tuning.blocked_kernel`, or none (the key is absent). An unknown name
/// is bad input, named with the valid ones.
template <typename T>
std::optional<KernelId> choose_blocked_kernel(const Case& c, const Backend<T>& backend) {
  if (c.tuning.blocked_kernel.empty()) return std::nullopt;
  try {
    return backend.find_step_kernel(c.grid.dims, c.tuning.blocked_kernel);
  } catch (const std::invalid_argument& e) {
    throw InputError(c.where("tuning.blocked_kernel") + "tuning.blocked_kernel: " + e.what());
  }
}

}  // namespace fdsolve
