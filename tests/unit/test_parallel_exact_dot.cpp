// Exactly summed inner products (kernels/exact_sum.hpp, parallel/exact_dot.hpp): the digits of
// a box are the sum of the digits of any partition of it (the property that makes the value the
// same on any number of ranks), the value agrees with a long-double compensated sum, and a
// scale that no longer fits is replaced.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "backend.hpp"
#include "parallel/exact_dot.hpp"

using namespace fdsolve;

namespace {

template <typename T>
struct Fields {
  Layout layout;
  std::vector<T> a, b;
};

template <typename T>
Fields<T> random_fields(std::array<index_t, 3> n, std::mt19937_64& gen, double spread) {
  Fields<T> f;
  f.layout = Layout::make(3, n, 4);
  // Magnitudes over `spread` decades and both signs: sums that cancel.
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0), decade(0.0, spread);
  for (auto* v : {&f.a, &f.b}) {
    v->resize(static_cast<std::size_t>(f.layout.size));
    for (T& x : *v) x = static_cast<T>(mantissa(gen) * std::pow(10.0, decade(gen)));
  }
  return f;
}

template <typename T>
DotArgs<T> args_of(const Fields<T>& f, const Box& box, std::array<bool, 6> half) {
  DotArgs<T> d;
  d.a = f.a.data();
  d.b = f.b.data();
  d.layout = f.layout;
  d.box = box;
  d.half = half;
  return d;
}

/// sum w a b in long double with compensation, and sum |w a b|.
template <typename T>
std::pair<long double, long double> reference(const DotArgs<T>& d) {
  long double sum = 0, carry = 0, magnitude = 0;
  bool half[6];
  for (int f = 0; f < 6; ++f) half[f] = d.half[f];
  const index_t n[3] = {d.layout.n[0], d.layout.n[1], d.layout.n[2]};
  for (index_t k = d.box.lo[2]; k < d.box.hi[2]; ++k)
    for (index_t j = d.box.lo[1]; j < d.box.hi[1]; ++j)
      for (index_t i = d.box.lo[0]; i < d.box.hi[0]; ++i) {
        const index_t c = d.layout.at(i, j, k);
        const long double t = static_cast<long double>(dot_weight(half, n, i, j, k)) *
                              static_cast<long double>(d.a[c]) * static_cast<long double>(d.b[c]);
        const long double y = t - carry, s = sum + y;
        carry = (s - sum) - y;
        sum = s;
        magnitude += std::fabs(t);
      }
  return {sum, magnitude};
}

bool same_digits(const DotPartial& x, const DotPartial& y) {
  return x.digit[0] == y.digit[0] && x.digit[1] == y.digit[1] && x.digit[2] == y.digit[2] &&
         x.largest == y.largest;
}

}  // namespace

TEST_CASE_TEMPLATE("exact dot: any partition of the box gives the same digits", T, float, double) {
  auto cpu = make_cpu_backend<T>();
  FluxOperations<T>& ops = *cpu->flux_operations();
  std::mt19937_64 gen(11 + sizeof(T));
  const Fields<T> f = random_fields<T>({17, 13, 9}, gen, 6.0);
  const Box whole = f.layout.owned_box();
  const std::array<bool, 6> half{true, false, false, true, true, true};
  const DotPartial all = ops.dot_terms(args_of(f, whole, half), 0);
  const int scale = parallel::exact_sum_scale(all.largest);
  const DotPartial want = ops.dot_terms(args_of(f, whole, half), scale);
  std::uniform_int_distribution<int> axis_of(0, 2);
  for (int trial = 0; trial < 40; ++trial) {
    // Two cuts along random axes: up to four boxes, merged in a shuffled order.
    std::vector<Box> boxes{whole};
    for (int cut = 0; cut < 2; ++cut) {
      const int a = axis_of(gen);
      std::vector<Box> next;
      for (const Box& b : boxes) {
        if (b.extent(a) < 2) {
          next.push_back(b);
          continue;
        }
        std::uniform_int_distribution<index_t> at(b.lo[a] + 1, b.hi[a] - 1);
        Box lo = b, hi = b;
        lo.hi[a] = hi.lo[a] = at(gen);
        next.push_back(lo);
        next.push_back(hi);
      }
      boxes = next;
    }
    std::shuffle(boxes.begin(), boxes.end(), gen);
    DotPartial merged;
    for (const Box& b : boxes) merge_dot(merged, ops.dot_terms(args_of(f, b, half), scale));
    CAPTURE(trial);
    CHECK(same_digits(merged, want));
  }
}

TEST_CASE_TEMPLATE("exact dot: the value agrees with a compensated long-double sum", T, float,
                   double) {
  auto cpu = make_cpu_backend<T>();
  FluxOperations<T>& ops = *cpu->flux_operations();
  std::mt19937_64 gen(23 + sizeof(T));
  for (double spread : {0.0, 3.0, 12.0}) {
    const Fields<T> f = random_fields<T>({31, 7, 5}, gen, spread);
    const DotArgs<T> d = args_of(f, f.layout.owned_box(), {false, true, true, false, false, true});
    parallel::ExactDot dot{parallel::Comm{}};
    const double got = dot(ops, d);
    const auto [sum, magnitude] = reference(d);
    CAPTURE(spread);
    CHECK(std::fabs(static_cast<long double>(got) - sum) <= 1e-15L * magnitude);
    CHECK(dot(ops, d) == got);  // the second call, at the kept scale, the same
  }
}

TEST_CASE("exact dot: a product far from the last one takes a new scale and stays exact") {
  auto cpu = make_cpu_backend<double>();
  FluxOperations<double>& ops = *cpu->flux_operations();
  std::mt19937_64 gen(5);
  Fields<double> f = random_fields<double>({12, 10, 8}, gen, 2.0);
  const DotArgs<double> d = args_of(f, f.layout.owned_box(), {});
  parallel::ExactDot dot{parallel::Comm{}};
  const double first = dot(ops, d);
  // Scaling a by a power of two scales every term exactly: so must the exact sum, whether the
  // kept scale still fits (2^10) or not (2^60, 2^-70).
  for (int e : {10, 60, -70, 0}) {
    Fields<double> g = f;
    for (double& x : g.a) x = std::ldexp(x, e);
    const DotArgs<double> scaled = args_of(g, g.layout.owned_box(), {});
    CAPTURE(e);
    CHECK(dot(ops, scaled) == std::ldexp(first, e));
  }
  for (double& x : f.a) x = 0;
  CHECK(dot(ops, d) == 0.0);
  f.a[static_cast<std::size_t>(f.layout.at(3, 4, 5))] = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(dot(ops, d)));
}

TEST_CASE("exact dot: the window of a pass") {
  CHECK(parallel::exact_sum_fits(1.0, parallel::exact_sum_scale(1.0)));
  CHECK(parallel::exact_sum_scale(1.0) == 78);
  CHECK(parallel::exact_sum_fits(std::ldexp(1.0, 16), 78));   // 2^94: top of the window
  CHECK_FALSE(parallel::exact_sum_fits(std::ldexp(1.0, 17), 78));
  CHECK(parallel::exact_sum_fits(std::ldexp(1.0, -18), 78));  // 2^60: bottom
  CHECK_FALSE(parallel::exact_sum_fits(std::ldexp(1.0, -19), 78));
  CHECK(parallel::exact_sum_fits(0.0, 5));
  const std::int64_t digits[3] = {1, -3, 7};  // 2^64 - 3 * 2^32 + 7 at 2^-64, rounded once
  CHECK(parallel::exact_sum_value(digits, 64) ==
        static_cast<double>(1.0L - 3.0L * std::ldexp(1.0L, -32) + 7.0L * std::ldexp(1.0L, -64)));
}

TEST_CASE("exact dot: a term times exact_sum_factor(scale) is ldexp(term, scale)") {
  // Terms across the whole double range, subnormal ones included, and scales that keep the
  // product normal, push it into the subnormal range, overflow it, or have no factor (0).
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-1074, 1023), scale_of(-1100, 1100);
  int multiplied = 0, subnormal = 0, overflowed = 0;
  for (int n = 0; n < 200000; ++n) {
    const double term = (n % 2 ? -1.0 : 1.0) * std::ldexp(mantissa(gen), exponent(gen));
    const int scale = scale_of(gen);
    const double factor = exact_sum_factor(scale);
    const double expected = std::ldexp(term, scale);
    if (factor == 0.0) {
      CHECK((scale < -1074 || scale > 1023));
      continue;
    }
    ++multiplied;
    const double product = term * factor;
    if (std::isinf(expected)) ++overflowed;
    if (expected != 0 && std::fpclassify(expected) == FP_SUBNORMAL) ++subnormal;
    if (product != expected) FAIL_CHECK(term << " x 2^" << scale << ": " << product << " != " << expected);
  }
  CHECK(multiplied > 150000);
  CHECK(subnormal > 100);
  CHECK(overflowed > 100);
  CHECK(exact_sum_factor(1024) == 0.0);
  CHECK(exact_sum_factor(-1075) == 0.0);
  CHECK(exact_sum_factor(-1074) == std::numeric_limits<double>::denorm_min());
}
