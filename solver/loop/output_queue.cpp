// See output_queue.hpp.
#include "output_queue.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace fdsolve {
namespace {

/// MemAvailable of /proc/meminfo in bytes (what the kernel can give without swapping); 0 where
/// it cannot be read.
std::uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace

std::size_t output_queue_capacity(const Case& c, std::uint64_t state_bytes, bool collective) {
  if (collective) return 0;
  if (c.output.queue >= 0) return static_cast<std::size_t>(c.output.queue);
  const std::uint64_t budget = available_host_bytes() / 4;
  const std::uint64_t fit = budget / std::max<std::uint64_t>(state_bytes, 1);
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(fit, 1, kAutoQueueLimit));
}

}  // namespace fdsolve
