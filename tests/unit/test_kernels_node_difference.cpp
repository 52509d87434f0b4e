// The CPU backend's shared-node differences (Richardson's estimate of solve.tolerance:
// discretization) against hand-set differences: only the even fine nodes of the box count,
// the sum of squares, the largest magnitude and the count are exact, a NaN difference makes
// both NaN.
#include <doctest/doctest.h>

#include <cmath>

#include "backend.hpp"
#include "../node_difference_case.hpp"

using namespace fdsolve;

TEST_CASE("kernels: shared-node differences on the CPU, 2D and 3D, float and double") {
  for (const int dims : {2, 3}) {
    const Box box = dims == 2 ? Box{{1, 2, 0}, {8, 6, 1}} : Box{{1, 0, 2}, {5, 4, 6}};
    const std::array<index_t, 3> big = dims == 2 ? std::array<index_t, 3>{3, 4, 0}
                                                 : std::array<index_t, 3>{2, 3, 5};
    INFO("dims ", dims);
    const auto d = test::shared_nodes_case<double>(dims, 9, box, big);
    auto cpu = make_cpu_backend<double>();
    Buffer<double> fine = cpu->allocate(d.fine.size), coarse = cpu->allocate(d.coarse.size);
    cpu->upload(fine, d.u_fine.data(), d.fine.size);
    cpu->upload(coarse, d.u_coarse.data(), d.coarse.size);
    SharedNodesArgs<double> a{fine.data(), d.fine, coarse.data(), d.coarse, d.box};
    const NodeDifference r = cpu->shared_node_difference(a);
    CHECK(r.count == d.count);
    CHECK(r.max == d.max);
    CHECK(r.sum_sq == doctest::Approx(d.sum_sq).epsilon(1e-14));

    const auto f = test::shared_nodes_case<float>(dims, 9, box, big);
    auto cpu_f = make_cpu_backend<float>();
    Buffer<float> ff = cpu_f->allocate(f.fine.size), cf = cpu_f->allocate(f.coarse.size);
    cpu_f->upload(ff, f.u_fine.data(), f.fine.size);
    cpu_f->upload(cf, f.u_coarse.data(), f.coarse.size);
    const NodeDifference rf =
        cpu_f->shared_node_difference({ff.data(), f.fine, cf.data(), f.coarse, f.box});
    CHECK(rf.max == f.max);
    CHECK(rf.sum_sq == doctest::Approx(f.sum_sq).epsilon(1e-12));

    // A NaN at a shared node of the box.
    std::vector<double> nan_fine = d.u_fine;
    nan_fine[d.fine.at(2 * box.lo[0], 2 * box.lo[1], 2 * box.lo[2])] = NAN;
    cpu->upload(fine, nan_fine.data(), d.fine.size);
    const NodeDifference n = cpu->shared_node_difference(a);
    CHECK(std::isnan(n.max));
    CHECK(std::isnan(n.sum_sq));
  }
}

TEST_CASE("kernels: node differences of two fields of one grid (stride 1) on the CPU") {
  const Layout L = Layout::make(3, {6, 5, 4}, 16);
  std::vector<double> prev(static_cast<std::size_t>(L.size), 1e9), cur = prev;
  const Box box{{1, 0, 1}, {5, 5, 3}};
  for (index_t k = 0; k < 4; ++k)
    for (index_t j = 0; j < 5; ++j)
      for (index_t i = 0; i < 6; ++i) {
        prev[L.at(i, j, k)] = 0.5 * i - j;
        cur[L.at(i, j, k)] = prev[L.at(i, j, k)] + (i == 2 && j == 3 && k == 2 ? 0.75 : 0.25);
      }
  auto cpu = make_cpu_backend<double>();
  Buffer<double> a = cpu->allocate(L.size), b = cpu->allocate(L.size);
  cpu->upload(a, cur.data(), L.size);
  cpu->upload(b, prev.data(), L.size);
  const NodeDifference d = cpu->shared_node_difference({a.data(), L, b.data(), L, box, 1});
  CHECK(d.count == 4 * 5 * 2);
  CHECK(d.max == 0.75);
  CHECK(d.sum_sq == 39 * 0.0625 + 0.5625);  // exact in binary
}
