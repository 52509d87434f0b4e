// Seconds on the steady clock since a moment: the debug log's timings and summary.json's.
#pragma once

#include <chrono>

namespace fdsolve {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace fdsolve
