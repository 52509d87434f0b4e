// Multigrid smoothing by blocked passes on CUDA (StencilHierarchy::set_blocked_smoothing: the temporally
// blocked kernels run a level's pre- or post-smoothing in one pass) against single sweeps on
// CUDA and on the CPU: residual reductions within 1 %, fields within rounding, repeats and
// recorded replays (as the solver loop replays a cycle) bit-identical. The blocked kernels
// compute each node as the single sweeps do, so the messages report bit-identity where found;
// in 2D the probe is the checked two-sweep pass, whose norms add in another order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../multigrid/bottom_levels_support.hpp"
#include "random_level.hpp"

namespace fdsolve {
namespace {

using namespace fdsolve::test;
using namespace fdsolve::multigrid;

template <typename T>
void compare(const BottomCase& bc, bool fmg = false) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  const int cycles = 4;
  const auto blocked = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1);
  const auto again = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 1);
  const auto single = run_cycles<T>(*gpu, bc.yaml, 0, cycles, 0.0, 1.0, -1, fmg, 0);
  const auto host = run_cycles<T>(*cpu, bc.yaml, 0, cycles, 0.0, 1.0,
                                  fused_restriction_pays(gpu->traits(), bc.dims) ? 1 : 0, fmg, 0);
  const double gap = field_gap(blocked.u, single.u);
  INFO(bc.name, std::string(sizeof(T) == 4 ? " float" : " double"), std::string(fmg ? " fmg" : ""));
  // The probe as a checked pair (2D) reduces its norms in other blocks than a single sweep:
  // the norms may differ by rounding where the fields are bit-identical.
  MESSAGE(
      bc.name, std::string(sizeof(T) == 4 ? " float" : " double"),
      ": blocked vs single sweeps: fields ",
      gap == 0.0 ? std::string("bit-identical") : "max relative gap " + std::to_string(gap),
      ", residual norms ",
      blocked.norms == single.norms
          ? std::string("equal")
          : "within " + std::to_string(reduction_gap(blocked.norms, single.norms)) + " per cycle");
  REQUIRE(blocked.blocked.at(0));  // all-Dirichlet cases: the fine level takes blocked passes
  CHECK(blocked.norms.back() < 1e-2 * blocked.norms.front());
  CHECK(reduction_gap(blocked.norms, single.norms) <= 0.01);
  CHECK(reduction_gap(blocked.norms, host.norms) <= 0.01);
  CHECK(gap <= (sizeof(T) == 4 ? 1e-4 : 1e-11));
  CHECK(field_gap(blocked.u, host.u) <= (sizeof(T) == 4 ? 1e-3 : 1e-9));
  CHECK(again.norms == blocked.norms);
  CHECK(field_gap(again.u, blocked.u) == 0.0);
}

/// Full multigrid and `cycles` probe + finish_cycle steps from a random start, directly or
/// (`recorded`) replaying recordings of both, as the solver loop runs them.
template <typename T>
std::vector<T> probe_and_finish(Backend<T>& be, const std::string& yaml, int cycles,
                                bool recorded) {
  const Case c = parse_case(yaml, "t.yaml");
  const auto levels = build_hierarchy(fine_level(c));
  const Layout L = levels[0].layout(sizeof(T));
  Buffer<T> cur = be.allocate(L.size), next = be.allocate(L.size);
  random_start(be, L, levels[0].box, 5, cur, next);
  Boundaries<T> bounds(c, be, L);
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.fuse_residual_restriction = fused_restriction_pays(be.traits(), c.grid.dims);
  StencilHierarchy<T> cy(levels, settings, be, choose_kernel(c, be),
               [&](Buffer<T>& x) { bounds.before_sweep(x, x, 0, 0); });
  cy.set_blocked_smoothing(true, 0);
  cy.set_fine_rhs(nullptr, 0.0);
  REQUIRE(cy.recordable());
  std::unique_ptr<Replay> rest, fmg;
  if (recorded) {
    rest = be.record([&] { cy.finish_cycle(cur, next); });
    fmg = be.record([&] { cy.full_multigrid(cur, next); });
    fmg->run();
  } else {
    cy.full_multigrid(cur, next);
  }
  for (int k = 0; k < cycles; ++k) {
    cy.probe(cur, next);
    if (recorded)
      rest->run();
    else
      cy.finish_cycle(cur, next);
  }
  std::vector<T> u(static_cast<std::size_t>(L.size));
  be.download(u.data(), cur, L.size);
  return u;
}

}  // namespace

TEST_CASE("gpu: multigrid blocked smoothing matches single sweeps, 2D") {
  for (const index_t n : {129, 130}) {
    compare<double>(bottom_cases(2, n, 5)[0]);
    compare<float>(bottom_cases(2, n, 5)[0], true);
    compare<double>(
        bottom_cases(2, n, 5, "solve: {multigrid: {pre_smooth: 3, post_smooth: 5}}\n")[0], true);
  }
}

TEST_CASE("gpu: multigrid blocked smoothing matches single sweeps, Chebyshev steps") {
  // The two-sweep pass with each sweep's own weights (march2's second weights).
  for (const index_t n : {129, 130}) {
    compare<double>(bottom_cases(2, n, 5, "solve: {multigrid: {smoother: chebyshev}}\n")[0], true);
    compare<float>(bottom_cases(2, n, 5, "solve: {multigrid: {smoother: chebyshev, pre_smooth: 3, "
                                         "post_smooth: 3}}\n")[0]);
  }
}

TEST_CASE("gpu: multigrid blocked smoothing matches single sweeps, 3D") {
  // Weighted Jacobi: 3D's blocked kernels run every sweep of a pass with one weight, so
  // Chebyshev steps smooth by single sweeps there.
  for (const int stencil : {7, 19, 27})
    compare<double>(bottom_cases(3, 33, stencil, "solve: {multigrid: {smoother: jacobi}}\n")[0],
                    true);
  compare<float>(bottom_cases(3, 34, 27, "solve: {multigrid: {cycle: w, smoother: jacobi}}\n")[0]);
}

TEST_CASE("gpu: multigrid blocked smoothing: recorded cycles replay what direct cycles do") {
  auto gpu = make_cuda_backend<double>(0);
  for (const auto& yaml :
       {bottom_cases(2, 257, 5)[0].yaml, bottom_cases(3, 33, 27)[0].yaml,
        bottom_cases(2, 129, 5, "solve: {multigrid: {pre_smooth: 2, post_smooth: 1}}\n")[0].yaml}) {
    INFO(yaml);
    const auto direct = probe_and_finish<double>(*gpu, yaml, 4, false);
    const auto replayed = probe_and_finish<double>(*gpu, yaml, 4, true);
    CHECK(field_gap(replayed, direct) == 0.0);
  }
}

}  // namespace fdsolve

namespace fdsolve {
namespace {

/// |a - b| relative to |b| (0 when both are 0).
double relative(double a, double b) {
  return a == b ? 0.0 : std::fabs(a - b) / std::max(std::fabs(b), 1e-300);
}

template <typename T>
void check_pair(bool with_source) {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  const RandomLevel<T> level(1000, 700, 3);
  const Layout& L = level.layout;
  const Box& box = level.box;
  const std::vector<T>& u = level.u;
  struct Result {
    SweepStats stats, first;
    std::vector<T> u, out;
  };
  const auto run = [&](Backend<T>& be) {
    auto fields = level.upload(be);
    const SweepArgs<T> a = level.args(fields, with_source);
    Buffer<T>& in = fields.in;
    Buffer<T>& out = fields.out;
    const KernelId pair = be.find_step_kernel(2, be.name() == "cuda" ? "march2" : "omp");
    REQUIRE(be.pairs_with_stats(pair));
    Result r;
    r.stats = be.smooth({a, 2, pair, true, nullptr, PassStats::Now});
    // Enqueued twice: the same statistics, bit for bit.
    be.smooth({a, 2, pair, true, nullptr, PassStats::Queued});
    be.smooth({a, 2, pair, true, nullptr, PassStats::Queued});
    const auto queued = be.collect_stats();
    REQUIRE(queued.size() == 2);
    for (const SweepStats& q : queued) {
      CHECK(q.sum_sq == r.stats.sum_sq);
      CHECK(q.max_abs == r.stats.max_abs);
      CHECK(q.sum == r.stats.sum);
    }
    r.u.resize(u.size());
    r.out.resize(u.size());
    be.download(r.u.data(), in, L.size);
    be.download(r.out.data(), out, L.size);
    r.first = be.sweep_with_stats(a, be.find_kernel(2, be.default_kernel(2)));
    return r;
  };
  const Result d = run(*gpu), h = run(*cpu);
  const std::string what = std::string(sizeof(T) == 4 ? "float" : "double") +
                           (with_source ? ", source field" : ", constant source");
  INFO(what);
  CHECK(std::memcmp(d.u.data(), u.data(), u.size() * sizeof(T)) == 0);  // the input unchanged
  CHECK(field_gap(d.out, h.out) <= (sizeof(T) == 4 ? 1e-5 : 1e-13));
  // The pair's statistics are the first sweep's, on CUDA as on the CPU and as a checked sweep.
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-11;
  for (const SweepStats* s : {&h.stats, &d.first}) {
    CHECK(d.stats.count == s->count);
    CHECK(relative(d.stats.sum_sq, s->sum_sq) <= tol);
    CHECK(relative(d.stats.max_abs, s->max_abs) <= tol);
    CHECK(relative(d.stats.min, s->min) <= tol);
    CHECK(relative(d.stats.max, s->max) <= tol);
    CHECK(std::fabs(d.stats.sum - s->sum) <= tol * static_cast<double>(s->count));
  }
  CHECK(d.stats.count == box.cells());
}

}  // namespace

TEST_CASE("gpu: the checked two-sweep pass: both sweeps, the first one's statistics") {
  for (const bool source : {false, true}) {
    check_pair<double>(source);
    check_pair<float>(source);
  }
  auto gpu = make_cuda_backend<double>(0);
  CHECK_FALSE(gpu->pairs_with_stats(gpu->find_step_kernel(2, "tb128x64")));
}

}  // namespace fdsolve
