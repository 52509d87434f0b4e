// Multigrid's coarse correction added inside the first post-smoothing pass (CUDA's march2,
// Backend::correct_and_sweep_steps) against the two operations run in turn: on the device and
// on the CPU backend (whose default runs prolong_add, then sweep_steps), and in whole cycles
// against cycles that prolong on their own. The fused pass adds the same interpolated value
// to u as prolong_add does, so the fields agree to the rounding of that addition (reported
// bit-identical where they are).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "../multigrid/bottom_levels_support.hpp"

namespace fdsolve {
namespace {

using namespace fdsolve::test;
using namespace fdsolve::multigrid;

/// One correct_and_sweep_steps on a 1001 x 701 level (odd and even rows and columns of the
/// box meet coarse nodes and midpoints) against prolong_add + sweep_steps.
template <typename T>
void check_backend_call(int steps, bool with_source) {
  const Layout L = Layout::make(2, {1001, 701, 1}, static_cast<index_t>(128 / sizeof(T)));
  const Layout C = Layout::make(2, {501, 351, 1}, static_cast<index_t>(128 / sizeof(T)));
  const Box box{{1, 1, 0}, {1000, 700, 1}};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<T> u(static_cast<std::size_t>(L.size)), g(u.size()),
      e(static_cast<std::size_t>(C.size));
  for (auto& x : u) x = static_cast<T>(unit(rng));
  for (auto& x : g) x = static_cast<T>(0.1 * unit(rng));
  for (auto& x : e) x = static_cast<T>(0.1 * unit(rng));
  StencilWeights w;
  w.points = 5;
  w.center = 0.2;
  w.face = {0.2, 0.2, 0.0};
  w.source = 0.05;
  const auto run = [&](Backend<T>& be, bool fused) {
    Buffer<T> in = be.allocate(L.size), out = be.allocate(L.size), src = be.allocate(L.size),
              coarse = be.allocate(C.size);
    be.upload(in, u.data(), L.size);
    be.upload(out, u.data(), L.size);
    be.upload(src, g.data(), L.size);
    be.upload(coarse, e.data(), C.size);
    SweepArgs<T> a;
    a.in = in.data();
    a.out = out.data();
    a.source_field = with_source ? src.data() : nullptr;
    a.layout = L;
    a.box = box;
    a.weights = w;
    TransferArgs<T> t;
    t.from = coarse.data();
    t.to = in.data();
    t.fine = L;
    t.coarse = C;
    t.box = box;
    const KernelId k = be.find_step_kernel(2, be.name() == "cuda" ? "march2" : "omp");
    if (fused) {
      be.correct_and_sweep_steps(t, a, steps, k);
    } else {
      be.prolong_add(t);
      be.sweep_steps(a, steps, k);
    }
    std::vector<T> result(u.size());
    be.download(result.data(), out, L.size);
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
