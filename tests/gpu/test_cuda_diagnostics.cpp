// CUDA diagnostics against the CPU ones (themselves tested against a serial computation in
// tests/unit) on the same random fields with planted values: exact on counts, bins, CDF,
// percentiles, extremes and non-finite locations, to rounding on the sums; bit-identical
// run to run; non-finite values in several select chunks of a large field.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "backend.hpp"

namespace fdsolve {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
using Coord = std::array<std::int64_t, 3>;

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Host fields of `layout` (halo and padding NaN: never part of a diagnostic).
template <typename T>
struct Fields {
  Layout L;
  std::vector<T> prev, cur;
  explicit Fields(const Layout& l)
      : L(l), prev(static_cast<std::size_t>(l.size), T(kNaN)), cur(prev) {}
};

/// Random u and updates spread over every histogram decade (and beyond), exact zeros, and
/// `planted` non-finite values written into cur.
template <typename T>
Fields<T> make_fields(int dims, std::array<index_t, 3> n, std::mt19937_64& gen,
                      const std::vector<std::pair<Coord, double>>& planted) {
  Fields<T> f(Layout::make(dims, n, static_cast<index_t>(128 / sizeof(T))));
  const Layout& L = f.L;
  std::uniform_real_distribution<double> value(-2, 2), decade(-33, 13), unit(0, 1);
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i) {
        const double r = unit(gen), scale = std::pow(10.0, decade(gen));
        const T u = T(value(gen) * (unit(gen) < 0.5 ? scale : 1.0));
        const double d = r < 0.1 ? 0.0 : (r < 0.55 ? 1 : -1) * scale;
        f.prev[L.at(i, j, k)] = u;
        f.cur[L.at(i, j, k)] = T(double(u) + d);
      }
  for (const auto& [at, v] : planted) f.cur[L.at(at[0], at[1], at[2])] = T(v);
  return f;
}

/// Mean of |cur| over the owned finite nodes: the scale of the rounding of the mean.
template <typename T>
double mean_abs(const Fields<T>& f) {
  double s = 0;
  for (index_t k = 0; k < f.L.n[2]; ++k)
    for (index_t j = 0; j < f.L.n[1]; ++j)
      for (index_t i = 0; i < f.L.n[0]; ++i) {
        const double v = f.cur[f.L.at(i, j, k)];
        if (std::isfinite(v)) s += std::fabs(v);
      }
  return s / static_cast<double>(f.L.owned_cells());
}

void check_equal(const Diagnostics& g, const Diagnostics& c, double abs_scale) {
  CHECK(g.nodes == c.nodes);
  CHECK(g.updated == c.updated);
  CHECK(same(g.min, c.min));
  CHECK(same(g.max, c.max));
  CHECK(g.nonfinite == c.nonfinite);
  CHECK(g.nonfinite_at == c.nonfinite_at);
  CHECK(same(g.linf, c.linf));
  CHECK(g.linf_at == c.linf_at);
  CHECK(g.histogram == c.histogram);
  CHECK(g.cdf == c.cdf);
  CHECK(same(g.p50, c.p50));
  CHECK(same(g.p90, c.p90));
  CHECK(same(g.p99, c.p99));
  // Sums in double in different orders: the relative error of a sum of n terms is below
  // n * 2^-53 of the sum of their magnitudes; 1e-10 covers the sizes here.
  const double rel = 1e-10;
  if (std::isfinite(c.mean))
    CHECK(std::fabs(g.mean - c.mean) <= rel * abs_scale);
  else
    CHECK(same(g.mean, c.mean));
  if (std::isfinite(c.sum_sq)) {
    CHECK(std::fabs(g.sum_sq - c.sum_sq) <= rel * c.sum_sq);
    CHECK(std::fabs(g.l2 - c.l2) <= rel * c.l2);
  } else {
    CHECK(same(g.sum_sq, c.sum_sq));
    CHECK(same(g.l2, c.l2));
  }
}

template <typename T>
void check_case(Backend<T>& gpu, Backend<T>& cpu, const Fields<T>& f, const Box& box) {
  const Diagnostics c = cpu.diagnose(f.prev.data(), f.cur.data(), f.L, box);
  Buffer<T> dprev = gpu.allocate(f.L.size), dcur = gpu.allocate(f.L.size);
  gpu.upload(dprev, f.prev.data(), f.L.size);
  gpu.upload(dcur, f.cur.data(), f.L.size);
  const Diagnostics g = gpu.diagnose(dprev.data(), dcur.data(), f.L, box);
  check_equal(g, c, mean_abs(f));
  // Bit-identical run to run.
  const Diagnostics again = gpu.diagnose(dprev.data(), dcur.data(), f.L, box);
  CHECK(same_bits(again.mean, g.mean));
  CHECK(same_bits(again.sum_sq, g.sum_sq));
  CHECK(same_bits(again.l2, g.l2));
  CHECK(same_bits(again.min, g.min));
  CHECK(same_bits(again.max, g.max));
  CHECK(same_bits(again.linf, g.linf));
  CHECK(again.histogram == g.histogram);
  CHECK(again.nonfinite_at == g.nonfinite_at);
  CHECK(again.linf_at == g.linf_at);
}

struct Shape {
  int dims;
  std::array<index_t, 3> n;
  Box box;
};

Shape whole(int dims, index_t nx, index_t ny, index_t nz = 1) {
  return {dims, {nx, ny, nz}, Box{{0, 0, 0}, {nx, ny, nz}}};
}
Shape interior(int dims, index_t nx, index_t ny, index_t nz = 1) {
  const index_t k0 = dims == 3 ? 1 : 0, k1 = dims == 3 ? nz - 1 : 1;
  return {dims, {nx, ny, nz}, Box{{1, 1, k0}, {nx - 1, ny - 1, k1}}};
}

std::vector<Shape> shapes() {
  return {whole(2, 1, 1),
          whole(2, 1, 7),
          whole(2, 31, 1),
          whole(2, 37, 53),
          {2, {40, 30, 1}, Box{{2, 1, 0}, {37, 29, 1}}},  // strict sub-box
          interior(2, 257, 131),
          {2, {9, 9, 1}, Box{{3, 3, 0}, {3, 9, 1}}},  // empty box
          whole(3, 1, 1, 1),
          interior(3, 3, 3, 3),
          whole(3, 31, 17, 23),
          {3, {12, 9, 11}, Box{{2, 1, 3}, {11, 8, 10}}},
          interior(3, 67, 5, 41),
          whole(3, 2, 97, 3)};
}

/// Non-finite values at chosen nodes of a shape: corners, the box, and a block of twelve.
std::vector<std::pair<Coord, double>> plant_for(const Shape& s) {
  const index_t nx = s.n[0], ny = s.n[1], nz = s.dims == 3 ? s.n[2] : 1;
  std::vector<std::pair<Coord, double>> p = {
      {{nx - 1, ny - 1, nz - 1}, kNaN}, {{nx / 2, ny / 2, nz / 2}, -kInf}, {{0, ny - 1, 0}, kInf}};
  for (index_t t = 0; t < 12; ++t)
    p.push_back({{(3 * t) % nx, (t / 3) % ny, (t / 5) % nz}, t % 2 ? kNaN : kInf});
  return p;
}

template <typename T>
void run_shapes() {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(77 + sizeof(T));
  for (const Shape& s : shapes()) {
    for (const bool with_nonfinite : {false, true}) {
      std::ostringstream what;
      what << s.dims << "D " << s.n[0] << "x" << s.n[1] << "x" << s.n[2] << " box [" << s.box.lo[0]
           << "," << s.box.hi[0] << ")x[" << s.box.lo[1] << "," << s.box.hi[1] << ")x["
           << s.box.lo[2] << "," << s.box.hi[2] << ")" << (with_nonfinite ? " with NaN/Inf" : "");
      CAPTURE(what.str());
      const auto planted = with_nonfinite ? plant_for(s) : std::vector<std::pair<Coord, double>>{};
      const Fields<T> f = make_fields<T>(s.dims, s.n, gen, planted);
      check_case(*gpu, *cpu, f, s.box);
    }
  }
}

/// Fields of 2.1M nodes: the select works through 2^20-node chunks until ten are found.
template <typename T>
void run_chunks() {
  auto gpu = make_cuda_backend<T>(0);
  auto cpu = make_cpu_backend<T>();
  std::mt19937_64 gen(5 + sizeof(T));
  const std::vector<Shape> big = {interior(2, 1531, 1409), whole(3, 131, 127, 129)};
  for (const Shape& s : big) {
    const index_t nx = s.n[0], ny = s.n[1], nz = s.dims == 3 ? s.n[2] : 1;
    const auto node = [&](index_t linear) -> Coord {
      return {linear % nx, linear / nx % ny, linear / (nx * ny)};
    };
    const index_t nodes = nx * ny * nz;
    std::vector<std::vector<std::pair<Coord, double>>> plants;
    plants.push_back({{node(nodes - 1), kNaN}});   // only the last node, in the last chunk
    std::vector<std::pair<Coord, double>> spread;  // 3 per chunk, the tail of each
    for (index_t c = 0; c * (1 << 20) < nodes; ++c)
      for (index_t t = 1; t <= 3; ++t)
        spread.push_back(
            {node(std::min(nodes, (c + 1) * (1 << 20)) - 7 * t), t == 2 ? -kInf : kNaN});
    plants.push_back(spread);
    std::vector<std::pair<Coord, double>> late;  // 25 past the first chunk
    for (index_t t = 0; t < 25; ++t) late.push_back({node((1 << 20) + 1 + 977 * t), kInf});
    plants.push_back(late);
    for (const auto& planted : plants) {
      CAPTURE(s.dims);
      CAPTURE(planted.size());
      const Fields<T> f = make_fields<T>(s.dims, s.n, gen, planted);
      check_case(*gpu, *cpu, f, s.box);
    }
    // Every node non-finite.
    Fields<T> all = make_fields<T>(s.dims, s.n, gen, {});
    for (index_t k = 0; k < nz; ++k)
      for (index_t j = 0; j < ny; ++j)
        for (index_t i = 0; i < nx; ++i) all.cur[all.L.at(i, j, k)] = T(kNaN);
    check_case(*gpu, *cpu, all, s.box);
  }
}

TEST_CASE("gpu: diagnostics match the CPU, 2D and 3D, double") { run_shapes<double>(); }
TEST_CASE("gpu: diagnostics match the CPU, 2D and 3D, float") { run_shapes<float>(); }
TEST_CASE("gpu: non-finite nodes are found across select chunks, double") { run_chunks<double>(); }
TEST_CASE("gpu: non-finite nodes are found across select chunks, float") { run_chunks<float>(); }

TEST_CASE("gpu: diagnostics of planted updates give the percentiles known by hand") {
  // 50 zeros, 40 updates of exactly 1.25 (a bin edge), 9 of 2 and one of 1000 in a 10 x 10
  // box: p50 = 0, p90 = 1.5, p99 = 2.5 (upper bin edges), as on the CPU (tests/unit).
  auto gpu = make_cuda_backend<float>(0);
  Fields<float> f(Layout::make(2, {12, 12, 1}, 32));
  for (index_t j = 0; j < 12; ++j)
    for (index_t i = 0; i < 12; ++i) f.prev[f.L.at(i, j)] = f.cur[f.L.at(i, j)] = 1.0f;
  int n = 0;
  for (index_t j = 1; j < 11; ++j)
    for (index_t i = 1; i < 11; ++i, ++n)
      f.cur[f.L.at(i, j)] = 1.0f + (n < 50 ? 0.0f : n < 90 ? 1.25f : n < 99 ? 2.0f : 1000.0f);
  f.cur[f.L.at(0, 11)] = -5.0f;
  Buffer<float> dprev = gpu->allocate(f.L.size), dcur = gpu->allocate(f.L.size);
  gpu->upload(dprev, f.prev.data(), f.L.size);
  gpu->upload(dcur, f.cur.data(), f.L.size);
  const Diagnostics g = gpu->diagnose(dprev.data(), dcur.data(), f.L, Box{{1, 1, 0}, {11, 11, 1}});
  CHECK(g.updated == 100);
  CHECK(g.min == -5.0);
  CHECK(g.max == 1001.0);
  CHECK(g.linf == 1000.0);
  CHECK(g.linf_at == Coord{10, 10, 0});
  CHECK(g.nonfinite == 0);
  CHECK(g.histogram[kHistZeroBin] == 50);
  CHECK(g.histogram[update_bin(1.25)] == 40);
  CHECK(g.p50 == 0.0);
  CHECK(g.p90 == 1.5);
  CHECK(g.p99 == 2.5);
}

}  // namespace
}  // namespace fdsolve
