// How a backend splits `steps` blocked sweeps into passes of at most `max_steps` sweeps each
// when one pass cannot fuse them all: passes alternate between the two buffers (the input is
// only read), so an odd number of them ends in the output buffer.
#pragma once

#include <vector>

namespace fdsolve {

/// Sweeps per pass, in order: ceil(steps / max_steps) passes, one more when that count is even,
/// as equal as possible (the first ones take the remainder). Empty for steps <= 0.
/// Needs max_steps >= 2, so that the extra pass still gets a sweep.
inline std::vector<int> step_passes(int steps, int max_steps) {
  std::vector<int> passes;
  if (steps <= 0) return passes;
  int count = (steps + max_steps - 1) / max_steps;
  if (count % 2 == 0) ++count;
  for (int p = 0; p < count; ++p) passes.push_back(steps / count + (p < steps % count ? 1 : 0));
  return passes;
}

}  // namespace fdsolve
