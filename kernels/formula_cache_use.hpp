// Where the CUDA backend keeps the formulas it compiles at run time (NVRTC) between runs: the
// first compile of a process costs more than the CUDA context it overlaps (docs/performance.md).
#pragma once

#include <filesystem>

namespace fdsolve {

/// Keeps the formulas NVRTC compiles in `directory` (created when first written) and reads them
/// back in later runs; an empty path keeps none (the default). Without CUDA it does nothing.
void use_formula_cache(const std::filesystem::path& directory);

}  // namespace fdsolve
