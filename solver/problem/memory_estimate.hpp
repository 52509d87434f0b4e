// How much backend and host memory a case needs, checked before anything is allocated.
#pragma once

#include <cstddef>

#include "case.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// Bytes of backend memory the case needs (both buffers, the source field and the per-node
/// Neumann gradients if any).
std::size_t required_memory(const Case& c);
/// The same for the nodes one rank owns.
std::size_t required_memory(const Case& c, const Subdomain& sub);
/// Bytes of backend memory the final snapshot adds while it is written (its slab and the
/// slab's staging copies, which are backend memory on the CPU) for the nodes of `sub`.
std::size_t output_slab_bytes(const Case& c, const Subdomain& sub);
/// Bytes of host memory the run needs on top of the backend's (the staging buffer of
/// snapshots and checkpoints, and the initial and source fields while they are built).
std::size_t required_host_memory(const Case& c);
/// The same for one rank; rank 0 also holds the gathered whole fields of snapshots.
std::size_t required_host_memory(const Case& c, const Subdomain& sub, bool root);

}  // namespace fdsolve
