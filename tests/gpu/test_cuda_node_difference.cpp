// The CUDA backend's shared-node differences against the hand-set ones of the CPU test and
// against the CPU backend on random fields: count and largest magnitude exact, the sum of
// squares to rounding (the device sums a row as a tree), repeats bit-identical, NaN kept.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "backend.hpp"
#include "../node_difference_case.hpp"

using namespace fdsolve;

namespace {

template <typename T>
NodeDifference on(Backend<T>& b, const test::SharedNodesCase<T>& s, const std::vector<T>& fine) {
  Buffer<T> f = b.allocate(s.fine.size), c = b.allocate(s.coarse.size);
  b.upload(f, fine.data(), s.fine.size);
  b.upload(c, s.u_coarse.data(), s.coarse.size);
  return b.shared_node_difference({f.data(), s.fine, c.data(), s.coarse, s.box});
}

template <typename T>
void check_backend_pair(int dims, index_t nc) {
  INFO("dims ", dims, " nodes ", nc, " ", sizeof(T) == 4 ? "float" : "double");
  const Box box = dims == 2 ? Box{{1, 1, 0}, {nc - 1, nc - 1, 1}}
                            : Box{{1, 0, 1}, {nc - 1, nc, nc - 1}};
  auto s = test::shared_nodes_case<T>(dims, nc, box, {2, 2, dims == 3 ? 2 : 0});
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  const NodeDifference hand = on(*gpu, s, s.u_fine);
  CHECK(hand.count == s.count);
  CHECK(hand.max == s.max);
  CHECK(hand.sum_sq == doctest::Approx(s.sum_sq).epsilon(sizeof(T) == 4 ? 1e-6 : 1e-13));

  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> random = s.u_fine;
  for (T& v : random) v = T(u(gen));
  const NodeDifference g = on(*gpu, s, random), c = on(*cpu, s, random);
  CHECK(g.count == c.count);
  CHECK(g.max == c.max);
  CHECK(g.sum_sq == doctest::Approx(c.sum_sq).epsilon(1e-12));
  const NodeDifference again = on(*gpu, s, random);
  CHECK(std::memcmp(&again.sum_sq, &g.sum_sq, sizeof(double)) == 0);

  // Stride 1: the fine field against itself shifted by a constant, over a box of fine nodes.
  std::vector<T> shifted = random;
  for (T& v : shifted) v = T(v + T(0.5));
  Buffer<T> x = gpu->allocate(s.fine.size), y = gpu->allocate(s.fine.size);
  gpu->upload(x, shifted.data(), s.fine.size);
  gpu->upload(y, random.data(), s.fine.size);
  const Box fine_box{{1, 1, dims == 3 ? 1 : 0}, {2 * nc - 2, 2 * nc - 2, dims == 3 ? 2 * nc - 2 : 1}};
  const NodeDifference one = gpu->shared_node_difference({x.data(), s.fine, y.data(), s.fine,
                                                           fine_box, 1});
  Buffer<T> xc = cpu->allocate(s.fine.size), yc = cpu->allocate(s.fine.size);
  cpu->upload(xc, shifted.data(), s.fine.size);
  cpu->upload(yc, random.data(), s.fine.size);
  const NodeDifference one_cpu = cpu->shared_node_difference({xc.data(), s.fine, yc.data(),
                                                               s.fine, fine_box, 1});
  CHECK(one.count == fine_box.cells());
  CHECK(one.max == one_cpu.max);
  CHECK(one.sum_sq == doctest::Approx(one_cpu.sum_sq).epsilon(1e-12));

  random[s.fine.at(2 * (nc - 2), 2 * 1, dims == 3 ? 2 : 0)] = T(NAN);
  const NodeDifference n = on(*gpu, s, random);
  CHECK(std::isnan(n.max));
  CHECK(std::isnan(n.sum_sq));
}

}  // namespace

TEST_CASE("gpu: shared-node differences against hand-set values and the CPU") {
  for (const int dims : {2, 3}) {
    check_backend_pair<double>(dims, dims == 2 ? 1025 : 65);
    check_backend_pair<float>(dims, dims == 2 ? 300 : 33);
  }
}
