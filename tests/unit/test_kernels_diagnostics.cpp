// The CPU diagnostics against a plain serial computation written here (frexp-based bins, sorted
// ranks for percentiles) and against values planted by hand: range, bin edges, percentiles,
// NaN/Inf coordinates, sub-boxes, the halo, and independence of the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "cpu/diagnostics_cpu.hpp"
#include "cpu/thread_policy.hpp"

using namespace fdsolve;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
using Coord = std::array<std::int64_t, 3>;

/// The bin of d, from frexp rather than from the bits (the definition in diagnostics.hpp).
int ref_bin(double d) {
  const double a = std::fabs(d);
  if (a == 0) return 0;
  if (!std::isfinite(a)) return 539;
  int ex = 0;
  const double m = std::frexp(a, &ex);  // a = m 2^ex, m in [0.5, 1)
  const int e = ex - 1;
  if (e < -100) return 1;
  if (e > 33) return 538;
  return 2 + (e + 100) * 4 + static_cast<int>(std::floor((2 * m - 1) * 4));
}

/// The upper edge of the bin of a finite |d|, from the same frexp split.
double ref_upper_edge(double a) {
  if (a == 0) return 0;
  int ex = 0;
  const double m = std::frexp(a, &ex);
  const int e = ex - 1;
  if (e < -100) return std::ldexp(1.0, -100);
  if (e > 33) return kInf;
  return std::ldexp(1 + (std::floor((2 * m - 1) * 4) + 1) / 4, e);
}

/// A field pair of `layout` whose halo and padding hold NaN (never part of a diagnostic).
template <typename T>
struct Pair {
  Layout L;
  std::vector<T> prev, cur;
  Pair(int dims, std::array<index_t, 3> n)
      : L(Layout::make(dims, n, static_cast<index_t>(128 / sizeof(T)))),
        prev(static_cast<std::size_t>(L.size), T(kNaN)),
        cur(static_cast<std::size_t>(L.size), T(kNaN)) {}
  T& p(index_t i, index_t j, index_t k = 0) { return prev[L.at(i, j, k)]; }
  T& c(index_t i, index_t j, index_t k = 0) { return cur[L.at(i, j, k)]; }
};

template <typename T>
Diagnostics diagnose(const Pair<T>& f, const Box& box) {
  return cpu::diagnose(f.prev.data(), f.cur.data(), f.L, box);
}

bool in_box(const Box& b, index_t i, index_t j, index_t k) {
  return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] && k < b.hi[2];
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Every field of `got` against a serial computation over `f` and `box`.
template <typename T>
void check_against_reference(const Pair<T>& f, const Box& box, const Diagnostics& got) {
  const Layout& L = f.L;
  double lo = kInf, hi = -kInf, sum = 0, sum_abs = 0, sum_sq = 0, linf = 0;
  Coord linf_at = {-1, -1, -1};  // the first NaN update, else the first largest |d|
  std::int64_t nonfinite = 0, updated = 0;
  std::vector<Coord> at;
  std::array<std::int64_t, kHistBins> hist{};
  std::vector<double> finite_abs;
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i) {
        const double c = f.cur[L.at(i, j, k)];
        if (!std::isnan(c)) lo = std::min(lo, c), hi = std::max(hi, c);
        sum += c;
        sum_abs += std::fabs(c);
        if (!std::isfinite(c)) {
          ++nonfinite;
          if (at.size() < 10) at.push_back({i, j, k});
        }
        if (!in_box(box, i, j, k)) continue;
        const double d = c - double(f.prev[L.at(i, j, k)]);
        ++updated;
        sum_sq += d * d;
        if (!std::isnan(linf) && (std::isnan(d) || std::fabs(d) > linf || updated == 1)) {
          linf = std::fabs(d);
          linf_at = {i, j, k};
        }
        ++hist[ref_bin(d)];
        if (std::isfinite(d)) finite_abs.push_back(std::fabs(d));
      }
  const std::int64_t nodes = L.n[0] * L.n[1] * L.n[2];
  CHECK(got.nodes == nodes);
  CHECK(got.updated == updated);
  CHECK(same(got.min, lo));
  CHECK(same(got.max, hi));
  CHECK(got.nonfinite == nonfinite);
  CHECK(got.nonfinite_at == at);
  if (std::isfinite(sum))
    CHECK(std::fabs(got.mean - sum / nodes) <= 1e-13 * (sum_abs / nodes + 1e-300));
  else
    CHECK(same(got.mean, sum / nodes));
  const double l2 = updated ? std::sqrt(sum_sq / updated) : 0.0;
  if (std::isfinite(sum_sq)) {
    CHECK(std::fabs(got.sum_sq - sum_sq) <= 1e-13 * sum_sq);
    CHECK(std::fabs(got.l2 - l2) <= 1e-13 * l2);
  } else {
    CHECK(same(got.sum_sq, sum_sq));
    CHECK(same(got.l2, l2));
  }
  CHECK(same(got.linf, linf));
  CHECK(got.linf_at == linf_at);
  CHECK(got.histogram == hist);
  std::int64_t running = 0;
  for (int b = 0; b < kHistBins; ++b) CHECK(got.cdf[b] == (running += hist[b]));
  CHECK(got.nonfinite_updates() == hist[539]);
  // Percentile p: the upper edge of the bin holding the ceil(p M / 100)-th smallest finite |d|.
  std::sort(finite_abs.begin(), finite_abs.end());
  const auto M = static_cast<std::int64_t>(finite_abs.size());
  const auto ref_pct = [&](std::int64_t p) {
    return M == 0 ? kNaN : ref_upper_edge(finite_abs[(p * M + 99) / 100 - 1]);
  };
  CHECK(same(got.p50, ref_pct(50)));
  CHECK(same(got.p90, ref_pct(90)));
  CHECK(same(got.p99, ref_pct(99)));
}

/// Random u and updates spread over every decade of the histogram and beyond (u of the
/// update's size half of the time, so that small updates survive rounding), with exact zeros.
template <typename T>
void fill_random(Pair<T>& f, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> value(-2, 2), decade(-33, 13), unit(0, 1);
  for (index_t k = 0; k < f.L.n[2]; ++k)
    for (index_t j = 0; j < f.L.n[1]; ++j)
      for (index_t i = 0; i < f.L.n[0]; ++i) {
        const double r = unit(gen), scale = std::pow(10.0, decade(gen));
        const T u = T(value(gen) * (unit(gen) < 0.5 ? scale : 1.0));
        const double d = r < 0.1 ? 0.0 : (r < 0.55 ? 1 : -1) * scale;
        f.p(i, j, k) = u;
        f.c(i, j, k) = T(double(u) + d);
      }
}

template <typename T>
void random_case(int dims, std::array<index_t, 3> n, Box box, std::uint64_t seed) {
  CAPTURE(dims);
  CAPTURE(n[0]);
  CAPTURE(n[1]);
  CAPTURE(n[2]);
  Pair<T> f(dims, n);
  std::mt19937_64 gen(seed);
  fill_random(f, gen);
  check_against_reference(f, box, diagnose(f, box));
}

}  // namespace

TEST_CASE("kernels: histogram bins have exact power-of-two edges") {
  CHECK(kHistBins == 540);
  CHECK(update_bin(0.0) == kHistZeroBin);
  CHECK(update_bin(-0.0) == kHistZeroBin);
  CHECK(update_bin(kNaN) == kHistNonfiniteBin);
  CHECK(update_bin(kInf) == kHistNonfiniteBin);
  CHECK(update_bin(-kInf) == kHistNonfiniteBin);
  CHECK(update_bin(std::numeric_limits<double>::denorm_min()) == kHistUnderflowBin);
  CHECK(update_bin(DBL_MAX) == kHistOverflowBin);
  CHECK(update_bin(std::ldexp(1.0, 34)) == kHistOverflowBin);
  CHECK(update_bin(std::nextafter(std::ldexp(1.0, 34), 0.0)) == kHistOverflowBin - 1);
  CHECK(update_bin(std::ldexp(1.0, -100)) == kHistFirstLogBin);
  CHECK(update_bin(std::nextafter(std::ldexp(1.0, -100), 0.0)) == kHistUnderflowBin);
  CHECK(update_bin(1.0) == 402);
  CHECK(update_bin(-1.25) == 403);
  CHECK(update_bin(std::nextafter(1.25, 0.0)) == 402);
  for (int b = kHistFirstLogBin; b < kHistOverflowBin; ++b) {
    CAPTURE(b);
    const double lo = bin_lower_edge(b), hi = bin_upper_edge(b);
    CHECK(update_bin(lo) == b);
    CHECK(update_bin(-lo) == b);
    CHECK(update_bin(std::nextafter(lo, 0.0)) == b - 1);
    CHECK(update_bin(std::nextafter(hi, 0.0)) == b);
    CHECK(update_bin(hi) == b + 1);
    CHECK(hi / lo <= 1.25);
  }
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> e(-320, 308), m(1, 10);
  for (int t = 0; t < 100000; ++t) {
    const double d = (t % 2 ? -1 : 1) * m(gen) * std::pow(10.0, e(gen));
    CHECK(update_bin(d) == ref_bin(d));
  }
}

TEST_CASE("kernels: diagnostics of planted updates give percentiles known by hand") {
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    // 12 x 12 (x 3) owned nodes; the box is the 10 x 10 interior of plane k = 1 (k = 0 in 2D).
    Pair<double> f(dims, {12, 12, 3});
    const index_t kb = dims == 3 ? 1 : 0;
    const Box box{{1, 1, kb}, {11, 11, kb + 1}};
    for (index_t k = 0; k < f.L.n[2]; ++k)
      for (index_t j = 0; j < 12; ++j)
        for (index_t i = 0; i < 12; ++i) f.p(i, j, k) = f.c(i, j, k) = 1.0;
    // Nodes outside the box carry the range and an update that must not count.
    f.c(0, 0, 0) = -5.0;
    f.c(11, 11, f.L.n[2] - 1) = 7.0;
    f.p(11, 3, kb) = -1e9;
    // In the box: 50 zeros, 40 updates of exactly 1.25 (a bin edge), 9 of 2, one of 1000.
    int n = 0;
    for (index_t j = 1; j < 11; ++j)
      for (index_t i = 1; i < 11; ++i, ++n) {
        const double d = n < 50 ? 0.0 : n < 90 ? 1.25 : n < 99 ? 2.0 : 1000.0;
        f.c(i, j, kb) = 1.0 + d;
      }
    const Diagnostics g = diagnose(f, box);
    const double nodes = 144.0 * f.L.n[2];
    CHECK(g.nodes == nodes);
    CHECK(g.updated == 100);
    CHECK(g.min == -5.0);
    CHECK(g.max == 1001.0);
    const double sum = nodes + (-6.0 + 6.0) + (40 * 1.25 + 9 * 2.0 + 1000.0);
    CHECK(g.mean == doctest::Approx(sum / nodes).epsilon(1e-15));
    CHECK(g.nonfinite == 0);
    CHECK(g.nonfinite_at.empty());
    CHECK(g.linf == 1000.0);
    CHECK(g.linf_at == Coord{10, 10, kb});
    CHECK(g.sum_sq == 40 * 1.5625 + 9 * 4.0 + 1e6);
    CHECK(g.l2 == doctest::Approx(std::sqrt((40 * 1.5625 + 36 + 1e6) / 100)).epsilon(1e-15));
    CHECK(g.histogram[kHistZeroBin] == 50);
    CHECK(g.histogram[403] == 40);             // [1.25, 1.5)
    CHECK(g.histogram[406] == 9);              // [2, 2.5)
    CHECK(g.histogram[2 + 4 * 109 + 3] == 1);  // [896, 1024)
    CHECK(g.cdf[kHistBins - 1] == 100);
    CHECK(g.p50 == 0.0);
    CHECK(g.p90 == 1.5);
    CHECK(g.p99 == 2.5);
    CHECK(percentile_from_cdf(g.cdf, 51) == 1.5);
    CHECK(percentile_from_cdf(g.cdf, 100) == 1024.0);
    check_against_reference(f, box, g);
  }
}

TEST_CASE("kernels: diagnostics report planted NaN and Inf at their coordinates, in C order") {
  for (const bool single : {false, true}) {
    CAPTURE(single);
    const auto run = [&]<typename T>() {
      Pair<T> f(3, {9, 7, 6});
      std::mt19937_64 gen(11);
      fill_random(f, gen);
      const Box box{{1, 1, 1}, {8, 6, 5}};
      // Twelve planted non-finite values, given out of order; the first ten in C order are
      // reported. One infinite prev under a finite cur makes a non-finite update only.
      const std::vector<std::pair<Coord, double>> planted = {
          {{8, 6, 5}, kNaN}, {{0, 0, 0}, kInf}, {{3, 2, 1}, -kInf}, {{8, 0, 0}, kNaN},
          {{0, 1, 0}, kNaN}, {{4, 4, 4}, kInf}, {{2, 2, 1}, kNaN},  {{7, 5, 4}, -kInf},
          {{0, 6, 2}, kNaN}, {{5, 3, 3}, kNaN}, {{1, 1, 1}, kInf},  {{6, 6, 5}, kNaN}};
      for (const auto& [at, v] : planted) f.c(at[0], at[1], at[2]) = T(v);
      f.p(2, 3, 2) = T(kInf);
      const Diagnostics g = diagnose(f, box);
      CHECK(g.nonfinite == 12);
      CHECK(g.nonfinite_at == std::vector<Coord>{{0, 0, 0},
                                                 {8, 0, 0},
                                                 {0, 1, 0},
                                                 {1, 1, 1},
                                                 {2, 2, 1},
                                                 {3, 2, 1},
                                                 {0, 6, 2},
                                                 {5, 3, 3},
                                                 {4, 4, 4},
                                                 {7, 5, 4}});
      // In the box: (3,2,1) (2,2,1) (1,1,1) (5,3,3) (4,4,4) (7,5,4), and the infinite prev.
      CHECK(g.nonfinite_updates() == 7);
      CHECK(g.min == -kInf);
      CHECK(g.max == kInf);
      CHECK(std::isnan(g.mean));
      CHECK(std::isnan(g.linf));
      CHECK(g.linf_at == Coord{2, 2, 1});  // the first NaN update; +-Inf ones rank below
      check_against_reference(f, box, g);
    };
    single ? run.template operator()<float>() : run.template operator()<double>();
  }
}

TEST_CASE("kernels: diagnostics match a serial computation on random fields and boxes") {
  std::uint64_t seed = 100;
  for (const bool single : {false, true}) {
    CAPTURE(single);
    const auto both = [&](int dims, std::array<index_t, 3> n, Box box) {
      single ? random_case<float>(dims, n, box, ++seed) : random_case<double>(dims, n, box, ++seed);
    };
    both(2, {1, 1, 1}, Box{{0, 0, 0}, {1, 1, 1}});
    both(2, {1, 1, 1}, Box{{0, 0, 0}, {0, 0, 1}});  // empty box
    both(2, {37, 53, 1}, Box{{0, 0, 0}, {37, 53, 1}});
    both(2, {40, 30, 1}, Box{{2, 1, 0}, {37, 29, 1}});
    both(2, {257, 131, 1}, Box{{1, 1, 0}, {256, 130, 1}});
    both(3, {1, 1, 1}, Box{{0, 0, 0}, {1, 1, 1}});
    both(3, {31, 17, 23}, Box{{0, 0, 0}, {31, 17, 23}});
    both(3, {12, 9, 11}, Box{{2, 1, 3}, {11, 8, 10}});
    both(3, {3, 3, 3}, Box{{1, 1, 1}, {2, 2, 2}});
  }
}

TEST_CASE("kernels: diagnostics of an empty box have no update statistics") {
  Pair<double> f(2, {5, 4, 1});
  std::mt19937_64 gen(3);
  fill_random(f, gen);
  const Diagnostics g = diagnose(f, Box{{2, 2, 0}, {2, 4, 1}});
  CHECK(g.updated == 0);
  CHECK(g.l2 == 0);
  CHECK(g.linf == 0);
  CHECK(g.linf_at == Coord{-1, -1, -1});
  CHECK(g.cdf[kHistBins - 1] == 0);
  CHECK(std::isnan(g.p50));
  CHECK(g.nodes == 20);
}

TEST_CASE("kernels: diagnostics refuse a box outside the owned nodes") {
  Pair<double> f(2, {5, 4, 1});
  CHECK_THROWS_AS(diagnose(f, Box{{0, 0, 0}, {6, 4, 1}}), std::invalid_argument);
  CHECK_THROWS_AS(diagnose(f, Box{{-1, 0, 0}, {5, 4, 1}}), std::invalid_argument);
}

TEST_CASE("kernels: diagnostics are bit-identical for any thread count") {
  Pair<double> f(3, {45, 33, 29});
  std::mt19937_64 gen(5);
  fill_random(f, gen);
  f.c(44, 32, 28) = kNaN;
  const Box box{{1, 1, 1}, {44, 32, 28}};
  // min_cells_per_thread 1: this small box must really be split across the threads.
  const cpu::ThreadPolicy saved = cpu::thread_policy();
  cpu::set_thread_policy({1, "test", 1});
  const Diagnostics one = diagnose(f, box);
  for (const int threads : {2, 3, 7}) {
    CAPTURE(threads);
    cpu::set_thread_policy({threads, "test", 1});
    const Diagnostics g = diagnose(f, box);
    const std::vector<std::pair<double, double>> pairs = {
        {one.min, g.min},       {one.max, g.max}, {one.mean, g.mean},
        {one.sum_sq, g.sum_sq}, {one.l2, g.l2},   {one.linf, g.linf},
        {one.p50, g.p50},       {one.p90, g.p90}, {one.p99, g.p99}};
    for (const auto& [a, b] : pairs) CHECK(std::memcmp(&a, &b, sizeof a) == 0);
    CHECK(g.histogram == one.histogram);
    CHECK(g.nonfinite_at == one.nonfinite_at);
    CHECK(g.linf_at == one.linf_at);
  }
  cpu::set_thread_policy(saved);
}
