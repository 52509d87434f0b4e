// Which sweep variant a run uses when the case names none: the winner measured for grids of
// about this size, precision and stencil on this GPU, from `fdsolve tune`'s cache when one
// matches the device, driver and fdsolve version, else from the built-in tables measured on
// the H100 and the H200, else the backend's default. Host-only logic, unit-tested on the CPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"

namespace fdsolve {

/// What a choice is made for.
struct ChoiceKey {
  int dims = 2;
  int points = 5;          // stencil class: 5 (2D), 7 or 27 (3D; see stencil_class)
  std::string precision;   // "float" or "double"
  std::int64_t cells = 0;  // nodes one sweep updates
};

/// One measured winner: the fastest variant for grids of `size` nodes per axis.
struct ChoiceEntry {
  int dims = 2;
  int points = 5;
  std::string precision;
  std::int64_t size = 0;
  std::string kernel;
  double us_per_sweep = 0;  // as measured (informative)
};

/// The stencil class a choice is keyed by: 5 in 2D; 7 or 27 in 3D (19 points run the same
/// kernels as 27, the plain kernel aside, and are keyed with them).
int stencil_class(int dims, int points);

/// Nodes per axis of the size ladder that `tune` and `bench --sizes` measure; `quick` keeps the
/// two smallest rungs.
std::vector<std::int64_t> size_ladder(int dims, bool quick = false);

/// The entry of `entries` for `key`: the same dims, stencil class and precision, with the size
/// nearest in log(cells) (ties to the smaller); none when no entry has that dims, class and
/// precision.
std::optional<ChoiceEntry> nearest_entry(const std::vector<ChoiceEntry>& entries,
                                         const ChoiceKey& key);

/// A built-in table: the GPU it was measured on ("H100") and its winners.
struct BuiltinTable {
  std::string gpu;
  std::vector<ChoiceEntry> entries;
};
/// The table whose GPU name is a word of `model` ("NVIDIA H100 80GB HBM3" -> H100); null if none.
const BuiltinTable* builtin_table(const std::string& model);

/// The contents of a tune cache file.
struct TuneCache {
  std::string backend;  // "cuda" or "cpu"
  DeviceIdentity device;
  std::string version;  // fdsolve's
  std::vector<ChoiceEntry> entries;
};

/// The cache as YAML text.
std::string format_tune_cache(const TuneCache& cache);
/// Parses cache text; throws std::runtime_error saying what is malformed.
TuneCache parse_tune_cache(const std::string& text);

/// $XDG_CACHE_HOME/fdsolve (or ~/.cache/fdsolve when it is unset or empty); empty when neither
/// variable is set.
std::filesystem::path tune_cache_directory();
/// The cache file of one backend and device model: <directory>/tune-<backend>-<model>.yaml,
/// the model's characters outside [A-Za-z0-9._-] replaced by '_'.
std::filesystem::path tune_cache_path(const std::filesystem::path& directory,
                                      const std::string& backend, const std::string& model);

/// A cache looked up for a device: the cache when it exists and matches, else a warning (empty
/// when there is simply no file).
struct CacheLookup {
  std::filesystem::path path;
  std::optional<TuneCache> cache;
  std::string warning;
};
/// Reads and validates the cache at `path` against the backend, device identity, fdsolve
/// version and the backend's variant names: a missing file is no cache; an unreadable,
/// malformed or foreign one (another model, driver or version, or an unknown variant) is
/// ignored with a warning, never trusted.
CacheLookup load_tune_cache(const std::filesystem::path& path, const std::string& backend,
                            const DeviceIdentity& device, const std::string& version,
                            const std::vector<std::string>& kernels2d,
                            const std::vector<std::string>& kernels3d);

/// The variant and why it was chosen.
struct KernelChoice {
  std::string kernel;
  std::string reason;   // "tuning.kernel", "tune cache <path>", "built-in table for H100, ..."
  std::string warning;  // a cache that was ignored, and why (for the log); empty if none
};

/// The decision: `requested` (tuning.kernel) when not empty; else the cache's entry for `key`;
/// else the built-in table of the device's model (CUDA only); else `fallback`. `kernels` are
/// the backend's variants for key.dims: entries naming another are passed over.
KernelChoice choose_variant(const std::string& requested, const ChoiceKey& key,
                            const std::string& backend, const DeviceIdentity& device,
                            const std::vector<std::string>& kernels, const std::string& fallback,
                            const CacheLookup& cache);

/// choose_variant with this fdsolve's tune cache for the backend's device (the file
/// tune_cache_path(tune_cache_directory(), ...)): what `run`, `check` and `bench --sizes` use.
KernelChoice choose_with_cache(const std::string& requested, const ChoiceKey& key,
                               const std::string& backend, const DeviceIdentity& device,
                               const std::vector<std::string>& kernels2d,
                               const std::vector<std::string>& kernels3d,
                               const std::string& fallback);

/// This build's version, as the tune cache records it.
std::string fdsolve_version();

/// "257^2" or "129^3".
std::string size_text(int dims, std::int64_t size);

}  // namespace fdsolve
