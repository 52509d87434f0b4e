// The bottom levels in one call (kernels/bottom_levels_team.hpp, the code CUDA runs as one
// thread block) on the CPU, with a team of one, against the level-by-level cycles on the same
// levels. The call adds in the order of the level-by-level operations wherever those compute
// each node with the same function: the 5- and 7-point sweeps, the transfers, the halo fill and
// the bottom CG. There the runs are bit-identical. The CPU's 19- and 27-point sweep sums its
// planes first (stencil3d_cpu.cpp) where the call uses update_3d (as CUDA's "plain" sweep):
// there they agree to rounding.
#include <doctest/doctest.h>

#include <tuple>

#include "../multigrid/bottom_levels_support.hpp"

using namespace fdsolve;
using namespace fdsolve::test;
using namespace fdsolve::multigrid;

namespace {

/// Every level but the fine one in the call.
constexpr index_t kAll = index_t(1) << 40;

template <typename T>
void compare(const BottomCase& bc, index_t cells, double alpha, double beta, int fused,
             bool fmg = false) {
  auto be = make_cpu_backend<T>();
  const int cycles = 5;
  const auto call = run_cycles<T>(*be, bc.yaml, cells, cycles, alpha, beta, fused, fmg);
  const auto each = run_cycles<T>(*be, bc.yaml, 0, cycles, alpha, beta, fused, fmg);
  INFO(bc.name, sizeof(T) == 4 ? " float" : " double", " alpha ", alpha, " beta ", beta, " fused ",
       fused, fmg ? " fmg" : "", " levels ", call.levels, " first in call ", call.first);
  // The call took the levels from `first` down (never the fine one).
  REQUIRE(call.first >= 1);
  REQUIRE(call.first < call.levels - 1);
  REQUIRE(each.first == each.levels);
  // The cycles converge, alike.
  CHECK(call.norms.back() < 1e-2 * call.norms.front());
  CHECK(reduction_gap(call.norms, each.norms) <= 0.01);
  const double gap = field_gap(call.u, each.u);
  if (bc.stencil == 5 || bc.stencil == 7) {
    CHECK(gap == 0.0);  // the same operations in the same order
    CHECK(call.norms == each.norms);
  } else {
    CHECK(gap <= (sizeof(T) == 4 ? 1e-4 : 1e-11));
  }
}

}  // namespace

TEST_CASE("multigrid bottom levels: one call equals level by level, 2D 5-point") {
  // 66: no level nests in the next (66, 34, 18, 10, 6, 4, 3); 65 and 33 every level does.
  for (const index_t n : {65, 66, 33})
    for (const auto& bc : bottom_cases(2, n, 5)) {
      compare<double>(bc, kBottomLevelsCells, 0.0, 1.0, 0);
      compare<double>(bc, kAll, 0.0, 1.0, 1);
      compare<double>(bc, kBottomLevelsCells, 1.0, 2e-3, 1);  // an implicit heat step's shift
      compare<float>(bc, kAll, 0.0, 1.0, 0);
    }
}

TEST_CASE("multigrid bottom levels: one call equals level by level, W cycles and FMG") {
  for (const index_t n : {65, 66})
    for (const auto& bc : bottom_cases(2, n, 5, "solve: {multigrid: {cycle: w}}\n")) {
      compare<double>(bc, kAll, 0.0, 1.0, 0);
      compare<double>(bc, kBottomLevelsCells, 1.0, 2e-3, 1);
      compare<double>(bc, kAll, 0.0, 1.0, 1, true);
    }
  for (const auto& bc : bottom_cases(3, 17, 7, "solve: {multigrid: {cycle: w}}\n"))
    compare<double>(bc, kAll, 0.0, 1.0, 0);
  for (const auto& bc : bottom_cases(2, 65, 5)) compare<float>(bc, kAll, 0.0, 1.0, 1, true);
  // An odd number of sweeps per visit: each level's correction ends in its other buffer.
  for (const auto& bc :
       bottom_cases(2, 66, 5, "solve: {multigrid: {pre_smooth: 1, post_smooth: 2, cycle: w}}\n"))
    compare<double>(bc, kAll, 0.0, 1.0, 0, true);
  for (const auto& bc :
       bottom_cases(3, 17, 27, "solve: {multigrid: {pre_smooth: 3, post_smooth: 2}}\n"))
    compare<double>(bc, kAll, 0.0, 1.0, 0, true);
}

TEST_CASE("multigrid bottom levels: one call equals level by level, 3D 7- and 27-point") {
  for (const int stencil : {7, 27})
    for (const index_t n : {17, 18})
      for (const auto& bc : bottom_cases(3, n, stencil)) {
        compare<double>(bc, kAll, 0.0, 1.0, 0);
        compare<double>(bc, kBottomLevelsCells, 1.0, 2e-3, 1);
        compare<float>(bc, kAll, 0.0, 1.0, 0);
      }
  for (const auto& bc : bottom_cases(3, 33, 27))
    compare<double>(bc, kBottomLevelsCells, 0.0, 1.0, 0);
}

TEST_CASE("multigrid bottom levels: one call equals level by level, Chebyshev steps") {
  // Each sweep of a step takes its own weights in the call as level by level.
  for (const char* settings : {"solve: {multigrid: {smoother: chebyshev}}\n",
                               "solve: {multigrid: {smoother: chebyshev, pre_smooth: 3, "
                               "post_smooth: 1, cycle: w}}\n"}) {
    for (const auto& bc : bottom_cases(3, 17, 7, settings)) compare<double>(bc, kAll, 0.0, 1.0, 0);
    for (const auto& bc : bottom_cases(2, 33, 5, settings)) compare<double>(bc, kAll, 0.0, 1.0, 0);
  }
}

TEST_CASE("multigrid bottom levels: one call equals level by level, semi-coarsened grids") {
  // Thin grids coarsen only their long axes at first: transfers of ratio 1 on the others.
  const std::string faces = face_cases(2)[1].faces;
  for (const auto& [points, extent, stencil] :
       {std::tuple{"[257, 9]", "[32, 1]", 5}, std::tuple{"[130, 17]", "[8, 1]", 5},
        std::tuple{"[65, 9, 5]", "[8, 1, 0.5]", 7},
        std::tuple{"[66, 9, 9]", "[8.125, 1, 1]", 27}}) {
    const BottomCase bc{std::string(points),
                        std::string("grid: {points: ") + points + ", extent: " + extent +
                            "}\nproblem: {equation: laplace}\nstencil: " + std::to_string(stencil) +
                            "\n" + faces,
                        stencil, stencil == 5 ? 2 : 3};
    compare<double>(bc, kAll, 0.0, 1.0, 0);
    compare<double>(bc, kBottomLevelsCells, 1.0, 2e-3, 1);
  }
}

TEST_CASE("multigrid bottom levels: which levels take the call") {
  const Case c = parse_case(laplace_case(2, 129, 5, face_cases(2)[0].faces), "t.yaml");
  const auto levels = build_hierarchy(fine_level(c));  // 129, 65, 33, 17, 9, 5, 3
  auto be = make_cpu_backend<double>();
  StencilHierarchy<double> cy(levels, CycleSettings{}, *be, choose_kernel(c, *be), [](Buffer<double>&) {});
  // Level by level on the CPU unless asked (bottom_levels_cells of the CPU's traits is 0).
  CHECK(cy.bottom_levels_first() == 7);
  cy.set_bottom_levels_cells(kBottomLevelsCells);  // 65^2 = 4225 > 4096 >= 33^2
  CHECK(cy.bottom_levels_first() == 2);
  cy.set_bottom_levels_cells(kAll);  // never the fine level
  CHECK(cy.bottom_levels_first() == 1);
  cy.set_bottom_levels_cells(9);  // the coarsest alone: nothing to gain
  CHECK(cy.bottom_levels_first() == 7);
  cy.set_bottom_levels_cells(0);
  CHECK(cy.bottom_levels_first() == 7);
  BackendTraits launch_bound;
  launch_bound.launch_bound = true;
  CHECK(bottom_levels_cells(launch_bound) == kBottomLevelsCells);
  CHECK(bottom_levels_cells(be->traits()) == 0);
}

TEST_CASE("multigrid cycle plan: the plan logged is the plan the cycles run") {
  const Case c = parse_case(laplace_case(2, 129, 5, face_cases(2)[0].faces), "t.yaml");
  const auto levels = build_hierarchy(fine_level(c));  // 129, 65, 33, 17, 9, 5, 3
  auto be = make_cpu_backend<double>();
  StencilHierarchy<double> cy(levels, CycleSettings{}, *be, choose_kernel(c, *be), [](Buffer<double>&) {});
  const auto names = be->kernels(2);
  const auto lines = [&] { return cy.describe_plan(); };
  REQUIRE(lines().size() == levels.size());
  // The CPU's traits: no pass kernel made for smoothing, no bottom call, single sweeps.
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const std::string line = lines()[l];
    INFO(line);
    CHECK(line.find("sweeps " + names[static_cast<std::size_t>(cy.plan().level[l].sweep.index)]) !=
          std::string::npos);
    CHECK(line.find("one call") == std::string::npos);
    CHECK_FALSE(cy.plan().level[l].passes.has_value());
  }
  CHECK(lines().back().find(cy.bottom_by_cg() ? "conjugate gradients" : "sweeps") !=
        std::string::npos);
  // Re-planned: the levels of at most 4096 nodes go into one call, and the log says so.
  cy.set_bottom_levels_cells(kBottomLevelsCells);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const bool in_call = static_cast<int>(l) >= cy.bottom_levels_first();
    CHECK((lines()[l].find("one call") != std::string::npos) == in_call);
  }
  // Blocked passes forced on: the fine level's line names the pass kernel the plan holds.
  cy.set_blocked_smoothing(true, 0);
  REQUIRE(cy.plan().level[0].passes.has_value());
  const auto passes = be->step_kernels(2);
  CHECK(lines()[0].find("smoothing passes " +
                        passes[static_cast<std::size_t>(cy.plan().level[0].passes->index)]) !=
        std::string::npos);
}
