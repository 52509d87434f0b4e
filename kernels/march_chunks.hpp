// How a z-marching sweep cuts its planes into chunks, one block per (tile, chunk): host
// arithmetic, apart from the CUDA launchers so that it is tested on the CPU.
#pragma once

#include <algorithm>
#include <cmath>

namespace fdsolve {

/// Chunks for `n` planes over `tiles` x-y tiles on `capacity` resident block slots (blocks per
/// SM times SMs). Blocks of equal length run in waves, so the slots stay busy for the fraction
/// waves / ceil(waves) of the time, waves = tiles * chunks / capacity; each chunk also reads two
/// planes beyond its own. The count is the one with the best busy fraction net of those reads,
/// the fewest on a tie, with chunks of at least 8 planes. One chunk per tile is one wave only
/// when the tiles nearly fill the slots: 645 tiles (a 513^3 box with Neumann faces in 4-row
/// float tiles) on 1056 slots would keep 61% of them busy; 8 chunks keep 98%.
inline long long chunk_count(long long n, long long tiles, long long capacity) {
  tiles = std::max(1LL, tiles);
  capacity = std::max(1LL, capacity);
  const long long most = std::min(256LL, std::max(1LL, (n + 7) / 8));
  long long best = 1;
  double best_score = -1.0;
  for (long long c = 1; c <= most; ++c) {
    const double waves = static_cast<double>(tiles * c) / static_cast<double>(capacity);
    const double busy = waves / std::ceil(waves);
    const double score = busy * static_cast<double>(n) / static_cast<double>(n + 2 * c);
    if (score > best_score * (1.0 + 1e-9)) {
      best = c;
      best_score = score;
    }
  }
  return best;
}

}  // namespace fdsolve
