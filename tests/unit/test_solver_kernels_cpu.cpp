// The CPU sweep and its statistics against values computed by hand, and the field layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "backend.hpp"
#include "cpu/stencil_cpu.hpp"
#include "point_update.hpp"

using namespace fdsolve;

TEST_CASE("solver: layout aligns owned rows and keeps a one-node halo") {
  const Layout L = Layout::make(3, {5, 4, 3}, 32);
  CHECK(L.at(0, 0, 0) % 32 == 0);
  CHECK(L.at(0, 1, 0) % 32 == 0);
  CHECK(L.at(0, 0, 1) % 32 == 0);
  CHECK(L.at(-1, -1, -1) >= 0);
  CHECK(L.at(5, 4, 3) < L.size);
  CHECK(L.pitch >= 5 + 2);
  const Layout L2 = Layout::make(2, {7, 3, 99}, 16);
  CHECK(L2.n[2] == 1);
  CHECK(L2.at(-1, -1) >= 0);
  CHECK(L2.at(7, 3) < L2.size);
}

TEST_CASE("solver: 2D sweep updates the box only, with hand-computed values and norms") {
  const Layout L = Layout::make(2, {4, 3, 1}, 8);
  std::vector<double> in(L.size, 0.0), out(L.size, -7.0);
  // u(i, j) = i + 10 j on the owned nodes.
  for (index_t j = 0; j < 3; ++j)
    for (index_t i = 0; i < 4; ++i) in[L.at(i, j)] = i + 10.0 * j;
  SweepArgs<double> a;
  a.in = in.data();
  a.out = out.data();
  a.layout = L;
  a.box = Box{{1, 1, 0}, {3, 2, 1}};  // nodes (1,1) and (2,1)
  a.weights.points = 5;
  a.weights.center = 0.5;
  a.weights.face = {0.1, 0.2, 0};
  a.weights.source = 1.0;
  SweepStats s;
  cpu::sweep(a, &s);
  // (1,1): 0.5*11 + 0.1*(10+12) + 0.2*(1+21) + 1 = 5.5 + 2.2 + 4.4 + 1 = 13.1
  // (2,1): 0.5*12 + 0.1*(11+13) + 0.2*(2+22) + 1 = 6 + 2.4 + 4.8 + 1 = 14.2
  CHECK(out[L.at(1, 1)] == doctest::Approx(13.1));
  CHECK(out[L.at(2, 1)] == doctest::Approx(14.2));
  CHECK(out[L.at(0, 1)] == -7.0);
  CHECK(out[L.at(3, 1)] == -7.0);
  CHECK(out[L.at(1, 0)] == -7.0);
  CHECK(s.count == 2);
  const double d1 = 13.1 - 11, d2 = 14.2 - 12;
  CHECK(s.sum_sq == doctest::Approx(d1 * d1 + d2 * d2));
  CHECK(s.l2() == doctest::Approx(std::sqrt((d1 * d1 + d2 * d2) / 2)));
  CHECK(s.linf() == doctest::Approx(std::max(d1, d2)));
  CHECK(s.min == doctest::Approx(13.1));
  CHECK(s.max == doctest::Approx(14.2));
  CHECK(s.sum == doctest::Approx(27.3));
}

TEST_CASE("solver: 3D sweep of a linear field reproduces it (weights summing to 1)") {
  // Any symmetric stencil whose weights sum to 1 maps a linear function to itself.
  const Layout L = Layout::make(3, {5, 6, 7}, 4);
  std::vector<float> in(L.size), out(L.size, 0.0f);
  for (index_t k = -1; k <= 7; ++k)
    for (index_t j = -1; j <= 6; ++j)
      for (index_t i = -1; i <= 5; ++i) in[L.at(i, j, k)] = 1.0f * i + 2.0f * j - 3.0f * k;
  for (int points : {7, 19, 27}) {
    SweepArgs<float> a;
    a.in = in.data();
    a.out = out.data();
    a.layout = L;
    a.box = L.owned_box();
    a.weights.points = points;
    a.weights.face = {0.05, 0.04, 0.03};  // 0.24 in all
    a.weights.edge = points >= 19 ? 0.02 : 0.0;
    a.weights.corner = points == 27 ? 0.03 : 0.0;
    a.weights.center = 1.0 - 0.24 - 12 * a.weights.edge - 8 * a.weights.corner;
    SweepStats s;
    cpu::sweep(a, &s);
    for (index_t k = 0; k < 7; ++k)
      for (index_t j = 0; j < 6; ++j)
        for (index_t i = 0; i < 5; ++i)
          CHECK(out[L.at(i, j, k)] == doctest::Approx(in[L.at(i, j, k)]).epsilon(1e-5));
    CHECK(s.count == 5 * 6 * 7);
    CHECK(s.linf() < 1e-4);
  }
}

TEST_CASE("solver: statistics propagate NaN and merge in any split") {
  SweepStats a, b;
  a.add(0, 1);
  a.add(0, 3);
  b.add(1, std::numeric_limits<double>::quiet_NaN());
  SweepStats m = a;
  m.merge(b);
  CHECK(std::isnan(m.linf()));
  SweepStats c;
  c.add(0, 2);
  SweepStats ab = a;
  ab.merge(c);
  CHECK(ab.count == 3);
  CHECK(ab.sum == 6);
  CHECK(ab.min == 1);
  CHECK(ab.max == 3);
  CHECK(ab.sum_sq == 14);
}

TEST_CASE("solver: buffers swap by pointer and free through their backend") {
  auto backend = make_cpu_backend<double>();
  Buffer<double> x = backend->allocate(10), y = backend->allocate(20);
  double* px = x.data();
  double* py = y.data();
  x.swap(y);
  CHECK(x.data() == py);
  CHECK(y.data() == px);
  CHECK(x.size() == 20);
  Buffer<double> z = std::move(x);
  CHECK(z.data() == py);
  CHECK(x.data() == nullptr);
}

TEST_CASE("solver: the 3D plane-marching CPU sweep equals the direct 27-point formula") {
  // Random field, weights and sub-box; the reference applies update_3d node by node.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1, 1);
  const Layout L = Layout::make(3, {23, 37, 19}, 8);
  std::vector<double> in(L.size), src(L.size), out(L.size, -99.0);
  for (auto& v : in) v = uni(rng);
  for (auto& v : src) v = uni(rng);
  for (int points : {19, 27}) {
    for (bool with_source : {false, true}) {
      SweepArgs<double> a;
      a.in = in.data();
      a.out = out.data();
      a.source_field = with_source ? src.data() : nullptr;
      a.layout = L;
      a.box = Box{{2, 1, 3}, {21, 36, 17}};
      a.weights.points = points;
      a.weights.center = uni(rng);
      a.weights.face = {uni(rng), uni(rng), uni(rng)};
      a.weights.edge = uni(rng);
      a.weights.corner = points == 27 ? uni(rng) : 0.0;
      a.weights.source = uni(rng);
      std::fill(out.begin(), out.end(), -99.0);
      SweepStats s;
      cpu::sweep(a, &s);
      const TypedWeights<double> w = typed<double>(a.weights);
      SweepStats expect;
      for (index_t k = -1; k <= 19; ++k)
        for (index_t j = -1; j <= 37; ++j)
          for (index_t i = -1; i <= 23; ++i) {
            const index_t c = L.at(i, j, k);
            const bool inside = i >= 2 && i < 21 && j >= 1 && j < 36 && k >= 3 && k < 17;
            if (!inside) {
              REQUIRE(out[c] == -99.0);
              continue;
            }
            const double v = points == 19 ? update_3d<19>(in.data(), c, L.pitch, L.plane, w,
                                                          with_source ? src[c] : w.source)
                                          : update_3d<27>(in.data(), c, L.pitch, L.plane, w,
                                                          with_source ? src[c] : w.source);
            REQUIRE(out[c] == doctest::Approx(v).epsilon(1e-13));
            expect.add(in[c], v);
          }
      CHECK(s.count == expect.count);
      CHECK(s.sum_sq == doctest::Approx(expect.sum_sq).epsilon(1e-12));
      CHECK(s.sum == doctest::Approx(expect.sum).epsilon(1e-12));
      CHECK(s.max_abs == doctest::Approx(expect.max_abs).epsilon(1e-13));
      CHECK(s.min == doctest::Approx(expect.min).epsilon(1e-13));
      CHECK(s.max == doctest::Approx(expect.max).epsilon(1e-13));
    }
  }
}
