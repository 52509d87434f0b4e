// Multigrid's coarse correction added inside the first post-smoothing pass (CUDA's march2,
// SmoothingPass::correction) against the two operations run in turn: on the device and
// on the CPU backend (whose default runs prolong_add, then the blocked pass), and in whole cycles
// against cycles that prolong on their own. The fused pass adds the same interpolated value
// to u as prolong_add does, so the fields agree to the rounding of that addition (reported
// bit-identical where they are).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "../multigrid/bottom_levels_support.hpp"
#include "random_level.hpp"

namespace fdsolve {
namespace {

using namespace fdsolve::test;
using namespace fdsolve::multigrid;

/// One corrected blocked pass on a 1001 x 701 level (odd and even rows and columns of the box
/// meet coarse nodes and midpoints) against prolong_add and an uncorrected pass.
template <typename T>
void check_backend_call(int steps, bool with_source) {
  const RandomLevel<T> level(1001, 701, 5);
  const Layout& L = level.layout;
  const Layout C = Layout::make(2, {501, 351, 1}, static_cast<index_t>(128 / sizeof(T)));
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> unit(-0.1, 0.1);
  std::vector<T> e(static_cast<std::size_t>(C.size));
  for (auto& x : e) x = static_cast<T>(unit(rng));
  const auto run = [&](Backend<T>& be, bool fused) {
    auto fields = level.upload(be);
    Buffer<T> coarse = be.allocate(C.size);
    be.upload(coarse, e.data(), C.size);
    const SweepArgs<T> a = level.args(fields, with_source);
    TransferArgs<T> t;
    t.from = coarse.data();
    t.to = fields.in.data();
    t.fine = L;
    t.coarse = C;
    t.box = level.box;
    const KernelId k = be.find_step_kernel(2, be.name() == "cuda" ? "march2" : "omp");
    if (fused) {
      be.smooth({a, steps, k, true, &t});
    } else {
      be.prolong_add(t);
      be.smooth({a, steps, k, true});
    }
    std::vector<T> result(level.u.size());
    be.download(result.data(), fields.out, L.size);
    return result;
  };
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  const std::vector<T> fused = run(*gpu, true), apart = run(*gpu, false), host = run(*cpu, true);
  const double gap = field_gap(fused, apart);
  const std::string what = std::string(sizeof(T) == 4 ? "float" : "double") + ", " +
                           std::to_string(steps) + " sweeps" +
                           (with_source ? ", source field" : ", constant source");
  INFO(what);
  MESSAGE(what, ": fused vs apart on CUDA: ",
          gap == 0.0 ? std::string("bit-identical") : "max relative gap " + std::to_string(gap));
  CHECK(gap <= (sizeof(T) == 4 ? 1e-6 : 1e-14));
  CHECK(field_gap(fused, host) <= (sizeof(T) == 4 ? 1e-5 : 1e-13));
}

/// Whole cycles with the correction fused against cycles that prolong on their own.
template <typename T>
void check_cycles(const BottomCase& bc, bool fmg) {
  auto gpu = make_cuda_backend<T>(0);
  const int cycles = 4;
  const auto fused = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1, 1);
  const auto again = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1, 1);
  const auto apart = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1, 0);
  const double gap = field_gap(fused.u, apart.u);
  const std::string what = bc.name + (sizeof(T) == 4 ? " float" : " double") + (fmg ? " fmg" : "");
  INFO(what);
  MESSAGE(what, ": fused correction vs apart: fields ",
          gap == 0.0 ? std::string("bit-identical") : "max relative gap " + std::to_string(gap),
          ", residual reductions within ", reduction_gap(fused.norms, apart.norms));
  REQUIRE(fused.fused_correction);
  REQUIRE(!apart.fused_correction);
  CHECK(fused.norms.back() < 1e-2 * fused.norms.front());
  CHECK(reduction_gap(fused.norms, apart.norms) <= 0.01);
  CHECK(gap <= (sizeof(T) == 4 ? 1e-4 : 1e-11));
  CHECK(again.norms == fused.norms);
  CHECK(field_gap(again.u, fused.u) == 0.0);
}

}  // namespace

TEST_CASE("gpu: the coarse correction inside the marching pass equals prolongation, then sweeps") {
  for (const int steps : {1, 2}) {
    check_backend_call<double>(steps, true);
    check_backend_call<double>(steps, false);
    check_backend_call<float>(steps, true);
  }
}

TEST_CASE("gpu: multigrid cycles with the correction fused match cycles without") {
  for (const index_t n : {129, 257}) {
    check_cycles<double>(bottom_cases(2, n, 5)[0], false);
    check_cycles<float>(bottom_cases(2, n, 5)[0], true);
    check_cycles<double>(
        bottom_cases(2, n, 5, "solve: {multigrid: {pre_smooth: 3, post_smooth: 5}}\n")[0], true);
  }
}

}  // namespace fdsolve
