// Smoothing by blocked passes (StencilHierarchy::set_blocked_smoothing, SmoothingPass::blocked)
// against single sweeps, on the CPU, whose blocked passes run the same single sweeps: the runs must be
// bit-identical, through every path a cycle smooths by (pre-smoothing after a probe, redone in
// one pass or not, post-smoothing, passes split at four sweeps, full multigrid, W cycles), and
// the levels that take blocked passes must be exactly those whose faces are all Dirichlet.
#include <doctest/doctest.h>

#include <algorithm>

#include "../multigrid/bottom_levels_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

namespace {

/// `fuses`: whether the fine level's correction runs inside its first post-smoothing pass
/// (all-Dirichlet faces, nested levels, two or more post-smoothing sweeps).
template <typename T>
void compare(const BottomCase& bc, bool fmg = false, bool fuses = false) {
  auto be = make_cpu_backend<T>();
  const int cycles = 4;
  const auto blocked = run_cycles<T>(*be, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1);
  const auto single = run_cycles<T>(*be, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 0);
  // The correction and the first post-smoothing pass as one backend call (the CPU's runs
  // prolong_add, then the sweeps) against the two calls of the cycle: the cycle's halo fills
  // and buffer swaps around it must give the same numbers.
  const auto apart = run_cycles<T>(*be, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1, 0);
  INFO(bc.name, std::string(sizeof(T) == 4 ? " float" : " double"), std::string(fmg ? " fmg" : ""));
  const bool dirichlet = bc.name.find("dirichlet") != std::string::npos;
  // Blocked passes on every level of an all-Dirichlet grid, on none of the others.
  CHECK(std::all_of(blocked.blocked.begin(), blocked.blocked.end(),
                    [&](bool b) { return b == dirichlet; }));
  CHECK(std::none_of(single.blocked.begin(), single.blocked.end(), [](bool b) { return b; }));
  CHECK(blocked.norms.back() < 1e-2 * blocked.norms.front());
  CHECK(blocked.norms == single.norms);
  CHECK(field_gap(blocked.u, single.u) == 0.0);
  CHECK(blocked.fused_correction == fuses);
  CHECK_FALSE(apart.fused_correction);
  CHECK(apart.norms == blocked.norms);
  CHECK(field_gap(apart.u, blocked.u) == 0.0);
}

}  // namespace

TEST_CASE("multigrid blocked smoothing: bit-identical to single sweeps, 2D") {
  for (const index_t n : {65, 66}) {
    for (const auto& bc : bottom_cases(2, n, 5)) {
      const bool fuses = n % 2 == 1 && bc.name.find("dirichlet") != std::string::npos;
      compare<double>(bc, false, fuses);
      compare<float>(bc, true, fuses);
    }
    // One pre-smoothing sweep (the probe's is taken), three and five (passes of four and one);
    // one post-smoothing sweep (no correction inside a pass).
    for (const char* smoothing :
         {"{pre_smooth: 1, post_smooth: 2}", "{pre_smooth: 3, post_smooth: 2}",
          "{pre_smooth: 5, post_smooth: 6, cycle: w}", "{pre_smooth: 2, post_smooth: 1}"})
      compare<double>(
          bottom_cases(2, n, 5, std::string("solve: {multigrid: ") + smoothing + "}\n")[0], true,
          n % 2 == 1 && std::string(smoothing).find("post_smooth: 1") == std::string::npos);
  }
}

TEST_CASE("multigrid blocked smoothing: bit-identical to single sweeps, 3D") {
  for (const int stencil : {7, 27})
    for (const auto& bc : bottom_cases(3, 17, stencil))
      compare<double>(bc, stencil == 7, bc.name.find("dirichlet") != std::string::npos);
  compare<float>(
      bottom_cases(3, 18, 19, "solve: {multigrid: {pre_smooth: 3, post_smooth: 3}}\n")[0]);
}

TEST_CASE("multigrid blocked smoothing: Chebyshev steps, each sweep of a pass its own weights") {
  // The pass takes the second sweep's weights (SweepArgs::second_weights): the same numbers as
  // single sweeps, through the probe's pair, the corrected first post-smoothing pass, W cycles
  // and full multigrid.
  for (const index_t n : {65, 66})
    for (const char* smoothing : {"{smoother: chebyshev}", "{smoother: chebyshev, pre_smooth: 3, "
                                                           "post_smooth: 4, cycle: w}"})
      for (const auto& bc :
           bottom_cases(2, n, 5, std::string("solve: {multigrid: ") + smoothing + "}\n")) {
        const bool fuses = n % 2 == 1 && bc.name.find("dirichlet") != std::string::npos;
        compare<double>(bc, true, fuses);
        compare<float>(bc, false, fuses);
      }
}

TEST_CASE("multigrid blocked smoothing: recordable cycles") {
  // A recording must leave the fine buffers as it found them: V(2,1) swaps them three times
  // with single sweeps, twice with blocked passes.
  const Case c = parse_case(laplace_case(2, 33, 5, face_cases(2)[0].faces) +
                                "solve: {multigrid: {pre_smooth: 2, post_smooth: 1}}\n",
                            "t.yaml");
  auto be = make_cpu_backend<double>();
  StencilHierarchy<double> cy(build_hierarchy(fine_level(c)), CycleSettings{c.solve.multigrid}, *be,
                    choose_kernel(c, *be), [](Buffer<double>&) {});
  cy.set_blocked_smoothing(false, 0);
  CHECK_FALSE(cy.recordable());
  cy.set_blocked_smoothing(true, 0);
  CHECK(cy.recordable());
}
