// The cycle plan on CUDA: what the backend's traits (BackendTraits) choose for a large 2D
// hierarchy of Dirichlet faces (blocked passes by the smoothing pass kernel, the correction
// inside the first pass, the bottom levels' one call, the residual inside the restriction), and
// that the plan's debug lines say exactly that.
#include <doctest/doctest.h>

#include <string>

#include "../multigrid/bottom_levels_support.hpp"

namespace fdsolve {
namespace {

using namespace fdsolve::test;
using namespace fdsolve::multigrid;

bool says(const std::string& line, const std::string& what) {
  return line.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("gpu: the cycle plan follows the CUDA backend's traits, and its log says so") {
  auto gpu = make_cuda_backend<double>(0);
  const BackendTraits traits = gpu->traits();
  REQUIRE(traits.launch_bound);
  REQUIRE_FALSE(traits.smoothing_pass_kernel[2].empty());
  const BottomCase bc = bottom_cases(2, 2049, 5)[0];  // every face Dirichlet
  INFO(bc.name);
  const Case c = parse_case(bc.yaml, "t.yaml");
  const auto levels = build_hierarchy(fine_level(c));
  const Layout L = levels[0].layout(sizeof(double));
  Boundaries<double> bounds(c, *gpu, L);
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.fuse_residual_restriction = fused_restriction_pays(traits, 2);
  CHECK(settings.fuse_residual_restriction);
  StencilHierarchy<double> cy(levels, settings, *gpu, choose_kernel(c, *gpu),
                    [&](Buffer<double>& x) { bounds.before_sweep(x, x, 0, 0); });
  const auto lines = cy.describe_plan();
  REQUIRE(lines.size() == levels.size());
  // 2049^2 is above kBlockedSmoothingCells: the fine level smooths in passes of the kernel the
  // traits name, with the correction inside its first post-smoothing pass.
  REQUIRE(cy.plan().level[0].passes.has_value());
  const auto passes = gpu->step_kernels(2);
  CHECK(passes[static_cast<std::size_t>(cy.plan().level[0].passes->index)] ==
        traits.smoothing_pass_kernel[2]);
  CHECK(says(lines[0], "smoothing passes " + traits.smoothing_pass_kernel[2]));
  CHECK(cy.fuses_correction(0));
  CHECK(says(lines[0], "the correction inside the first pass"));
  CHECK(says(lines[0], "residual inside the restriction"));
  CHECK(cy.plan().pair_probe == says(lines[0], "checked pair"));
  // The levels of at most kBottomLevelsCells nodes, never the fine one, go into one call.
  int first = static_cast<int>(levels.size());
  for (int l = static_cast<int>(levels.size()) - 1; l >= 1; --l) {
    if (levels[static_cast<std::size_t>(l)].cells() > kBottomLevelsCells) break;
    first = l;
  }
  CHECK(cy.bottom_levels_first() == first);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    INFO(lines[l]);
    CHECK(says(lines[l], "one call") == (static_cast<int>(l) >= first));
    CHECK(says(lines[l], "smoothing passes") == cy.plan().level[l].passes.has_value());
  }
  // Forced off, each choice leaves its line.
  cy.set_blocked_smoothing(false);
  cy.set_bottom_levels_cells(0);
  for (const std::string& line : cy.describe_plan()) {
    CHECK_FALSE(says(line, "smoothing passes"));
    CHECK_FALSE(says(line, "one call"));
    CHECK_FALSE(says(line, "correction inside"));
  }
}

}  // namespace fdsolve
