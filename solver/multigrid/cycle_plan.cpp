// See cycle_plan.hpp.
#include "cycle_plan.hpp"

#include <cstdlib>
#include <string>

namespace fdsolve::multigrid {

bool fused_restriction_pays(const BackendTraits& traits, int dims) {
  return traits.fused_residual_restriction_2d && dims == 2;
}

bool uses_chebyshev(const MultigridSpec& spec) {
  // auto: Chebyshev. Measured (docs/performance.md, "Smoothers"): Chebyshev steps take fewer
  // V(2,2) cycles to 1e-8 than weighted Jacobi on every constant stencil, 1.4x faster on a GPU in
  // 3D with 7 points (8 cycles against 12), 1.11-1.23x in 2D and 3D with 19 or 27 points.
  return spec.smoother != Smoother::Jacobi;
}

bool record_cycles_default() {
  const char* text = std::getenv("FDSOLVE_RECORD_CYCLES");
  return !text || std::string(text) != "0";
}

bool fused_correction_default() {
  const char* text = std::getenv("FDSOLVE_FUSED_CORRECTION");
  return !text || std::string(text) != "0";
}

bool blocked_smoothing_default(const BackendTraits& traits, int dims) {
  if (const char* text = std::getenv("FDSOLVE_BLOCKED_SMOOTHING")) return std::string(text) != "0";
  return !traits.smoothing_pass_kernel[dims].empty();
}

index_t bottom_levels_cells(const BackendTraits& traits) {
  if (!traits.launch_bound) return 0;
  // A measurement knob (docs/performance.md): FDSOLVE_BOTTOM_LEVELS_CELLS=N moves the
  // threshold, 0 visits every level by itself.
  if (const char* text = std::getenv("FDSOLVE_BOTTOM_LEVELS_CELLS"))
    return static_cast<index_t>(std::strtoll(text, nullptr, 10));
  return kBottomLevelsCells;
}

}  // namespace fdsolve::multigrid
