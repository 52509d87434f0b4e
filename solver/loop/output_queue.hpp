// How many snapshots and checkpoints the background writer may hold at once (output.queue).
#pragma once

#include <cstddef>
#include <cstdint>

#include "case.hpp"

namespace fdsolve {

/// output.queue when set; for auto, as many states of `state_bytes` as fit into a quarter of
/// the host memory available now, at most kAutoQueueLimit and at least one. Over several ranks
/// with parallel HDF5 (`collective`) every write is collective and made on the loop's thread: 0.
std::size_t output_queue_capacity(const Case& c, std::uint64_t state_bytes, bool collective);

/// A few pending writes already keep the disk busy while the loop goes on; more only add
/// page-locked memory, whose allocation costs the loop about a third of what writing it does.
inline constexpr std::size_t kAutoQueueLimit = 4;

}  // namespace fdsolve
