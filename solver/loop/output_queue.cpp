// See output_queue.hpp.
#include "output_queue.hpp"

#include <algorithm>

#include "backend.hpp"

namespace fdsolve {

std::size_t output_queue_capacity(const Case& c, std::uint64_t state_bytes, bool collective) {
  if (collective) return 0;
  if (c.output.queue >= 0) return static_cast<std::size_t>(c.output.queue);
  const std::uint64_t budget = static_cast<std::uint64_t>(host_available_memory()) / 4;
  const std::uint64_t fit = budget / std::max<std::uint64_t>(state_bytes, 1);
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(fit, 1, kAutoQueueLimit));
}

}  // namespace fdsolve
