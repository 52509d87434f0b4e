// Every sweep variant timed over the size ladder (kernel_choice.hpp) on one device, as the
// Jacobi loop runs sweeps between checks: blocks of sweeps recorded once and replayed
// (sweep_block.hpp), so small grids show their true per-sweep cost, launch overhead included.
// Shared by `fdsolve tune` (which caches the winners) and `fdsolve bench --sizes`.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kernel_choice.hpp"

namespace fdsolve {

struct LadderOptions {
  std::string backend = "cuda";  // "cuda" or "cpu"
  int dims = 0;                  // 2, 3, or 0: both
  std::string precision;         // "float", "double", or empty: both
  std::string kernel;            // one variant, or empty: all
  bool quick = false;            // the two smallest rungs only, fewer sweeps
  std::int64_t size = 0;         // one rung of this many nodes per axis instead of the ladder
};

/// One variant at one rung.
struct LadderRow {
  int dims = 2;
  int points = 5;  // stencil class
  std::string precision;
  std::int64_t size = 0;
  std::string kernel;
  std::int64_t sweeps = 0;  // timed per repetition
  double us_per_sweep = 0;  // median of the repetitions
  double gcells_per_s = 0;
  double pct_copy = 0;  // bytes (2 sizeof(T) per node) over the copy bandwidth, in %
};

/// What the ladder found on one device.
struct LadderResult {
  std::string device;  // Backend::device()
  DeviceIdentity identity;
  double copy_gb_per_s = 0;
  std::vector<LadderRow> rows;
  std::vector<std::string> kernels2d, kernels3d;  // the backend's variants
  std::string fallback2d, fallback3d;             // the backend's defaults
};

/// Times every variant at every rung, float then double, 2D (5-point) then 3D (7 and 27
/// points); one progress line per row on `progress` when not null.
LadderResult measure_ladder(const LadderOptions& options, std::ostream* progress);

/// The fastest row of each (dims, points, precision, size) group, as cache entries.
std::vector<ChoiceEntry> ladder_winners(const std::vector<LadderRow>& rows);

}  // namespace fdsolve
