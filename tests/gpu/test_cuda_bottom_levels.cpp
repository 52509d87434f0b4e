// Multigrid's bottom levels in one kernel (kernels/cuda/bottom_levels.cu: one thread block)
// against the same cycles level by level, on CUDA and on the CPU: residual reductions per cycle
// within 1 %, fields within rounding, repeats and graph replays bit-identical. The kernel
// computes every node with the functions of the level-by-level kernels, in their order, and
// runs the bottom CG with that solve's own 256-thread team: it is expected to match CUDA level
// by level bit for bit, which the messages report (the checks allow rounding: ptxas may
// contract a product into a multiply-add in one kernel and not the other).
#include <doctest/doctest.h>

#include "../multigrid/bottom_levels_support.hpp"

namespace fdsolve {
namespace {

using namespace fdsolve::test;
using namespace fdsolve::multigrid;

constexpr index_t kAll = index_t(1) << 40;  // every level but the fine one

template <typename T>
void compare(const BottomCase& bc, index_t cells, double alpha = 0.0, double beta = 1.0) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  const int cycles = 5;
  const auto one = run_cycles<T>(*gpu, bc.yaml, cells, cycles, alpha, beta);
  const auto again = run_cycles<T>(*gpu, bc.yaml, cells, cycles, alpha, beta);
  const auto each = run_cycles<T>(*gpu, bc.yaml, 0, cycles, alpha, beta);
  // The CPU fusing the residual into the restriction where CUDA does (2D).
  const auto host = run_cycles<T>(*cpu, bc.yaml, 0, cycles, alpha, beta,
                                  fused_restriction_pays(gpu->traits(), bc.dims) ? 1 : 0);
  const double gap = field_gap(one.u, each.u);
  INFO(bc.name, std::string(sizeof(T) == 4 ? " float" : " double"), " alpha ", alpha, " beta ",
       beta, " levels ", one.levels, " first in the kernel ", one.first);
  MESSAGE(bc.name, std::string(sizeof(T) == 4 ? " float" : " double"),
          ": one kernel vs CUDA level by level ",
          gap == 0.0 && one.norms == each.norms ? std::string("bit-identical")
                                                : std::string("max relative gap "),
          gap == 0.0 ? std::string() : std::to_string(gap));
  REQUIRE(one.first >= 1);
  REQUIRE(one.first < one.levels - 1);
  REQUIRE(each.first == each.levels);
  CHECK(one.norms.back() < 1e-2 * one.norms.front());
  CHECK(reduction_gap(one.norms, each.norms) <= 0.01);
  CHECK(reduction_gap(one.norms, host.norms) <= 0.01);
  CHECK(gap <= (sizeof(T) == 4 ? 1e-4 : 1e-11));
  CHECK(field_gap(one.u, host.u) <= (sizeof(T) == 4 ? 1e-3 : 1e-9));
  // Repeats are bit-identical.
  CHECK(again.norms == one.norms);
  CHECK(field_gap(again.u, one.u) == 0.0);
}

}  // namespace

// Small enough for compute-sanitizer's racecheck (tools/device-test.sh leaves the "problems"
// suite out): the kernel's passes and barriers on 2D and 3D levels, mirrored and wrapped.
TEST_CASE("gpu: multigrid bottom levels: one kernel matches level by level, small grids") {
  for (const auto& bc : bottom_cases(2, 33, 5)) compare<double>(bc, kAll);
  for (const auto& bc : bottom_cases(3, 9, 27)) compare<double>(bc, kAll);
  compare<float>(bottom_cases(2, 34, 5, "solve: {multigrid: {cycle: w}}\n")[1], kAll);
}

TEST_CASE(
    "gpu: multigrid bottom levels: one kernel matches level by level and the CPU, every "
    "stencil and face type" *
    doctest::test_suite("problems")) {
  // 66 and 18: no level nests in the next; 65 and 17 every level does.
  for (const index_t n : {65, 66}) {
    for (const auto& bc : bottom_cases(2, n, 5)) {
      compare<double>(bc, kBottomLevelsCells);
      compare<double>(bc, kAll, 1.0, 2e-3);  // an implicit heat step's shift
      compare<float>(bc, kAll);
    }
    for (const auto& bc : bottom_cases(2, n, 5, "solve: {multigrid: {cycle: w}}\n"))
      compare<double>(bc, kAll);
  }
  for (const int stencil : {7, 19, 27})
    for (const index_t n : {17, 18})
      for (const auto& bc : bottom_cases(3, n, stencil)) {
        compare<double>(bc, kAll);
        compare<double>(bc, kBottomLevelsCells, 1.0, 2e-3);
        compare<float>(bc, kAll);
      }
  for (const auto& bc : bottom_cases(3, 33, 27)) compare<double>(bc, kBottomLevelsCells);
  // Chebyshev steps: each sweep of a step with its own weights.
  for (const auto& bc : bottom_cases(3, 17, 7, "solve: {multigrid: {smoother: chebyshev}}\n"))
    compare<double>(bc, kAll);
}

TEST_CASE("gpu: multigrid bottom levels: on by default, and a recorded cycle replays the kernel") {
  const BottomCase bc = bottom_cases(2, 129, 5)[1];  // Neumann faces
  const Case c = parse_case(bc.yaml, "t.yaml");
  auto gpu = make_cuda_backend<double>(0);
  const auto levels = build_hierarchy(fine_level(c));  // 129, 65, 33, ...: 33^2 <= 4096
  const Layout L = levels[0].layout(sizeof(double));
  Boundaries<double> bounds(c, *gpu, L);
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.fuse_residual_restriction = fused_restriction_pays(gpu->traits(), 2);
  StencilHierarchy<double> cy(levels, settings, *gpu, choose_kernel(c, *gpu),
                    [&](Buffer<double>& x) { bounds.before_sweep(x, x, 0, 0); });
  cy.set_fine_rhs(nullptr, 0.0);
  CHECK(cy.bottom_levels_first() == 2);
  REQUIRE(cy.recordable());
  std::vector<double> start(static_cast<std::size_t>(L.size), 0.0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (index_t j = 1; j < L.n[1] - 1; ++j)
    for (index_t i = 1; i < L.n[0] - 1; ++i) start[L.at(i, j, 0)] = unit(rng);
  const auto after = [&](bool recorded) {
    Buffer<double> cur = gpu->allocate(L.size), next = gpu->allocate(L.size);
    gpu->upload(cur, start.data(), L.size);
    gpu->upload(next, start.data(), L.size);
    if (recorded) {
      const auto replay = gpu->record([&] { cy.cycle(cur, next); });
      for (int k = 0; k < 3; ++k) replay->run();
    } else {
      for (int k = 0; k < 3; ++k) cy.cycle(cur, next);
    }
    std::vector<double> u(static_cast<std::size_t>(L.size));
    gpu->download(u.data(), cur, L.size);
    return u;
  };
  const auto direct = after(false), replayed = after(true);
  CHECK(field_gap(replayed, direct) == 0.0);
  CHECK(field_gap(direct, start) > 0.5);  // the cycles changed the field
}

}  // namespace fdsolve
