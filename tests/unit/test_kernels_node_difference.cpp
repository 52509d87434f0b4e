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
