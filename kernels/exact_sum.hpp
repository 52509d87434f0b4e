// Inner products summed exactly, so that their bits do not depend on how the nodes are shared
// out (threads, blocks, ranks) nor on the order in which the shares meet: every term is scaled
// by 2^scale, rounded to an integer and added as three base-2^32 digits in 64-bit integers,
// whose sums are exact in any order. The scale puts the largest term between 2^60 and 2^95, so
// that the rounding keeps at least 60 bits of it (a double has 53) and the digits cannot
// overflow for up to 2^31 terms. A caller that does not know the largest term yet guesses the
// scale (the last product's), reads the largest term from the same pass and repeats the pass
// when it was outside that window (solver/parallel/exact_dot.hpp).
//
// The CG of the flux operator needs this: its step lengths are quotients of inner products,
// and a sum rounded differently on 2 ranks than on 1 would change every later iterate.
#pragma once

#include <cmath>
#include <cstdint>

#include "host_device.hpp"

namespace fdsolve {

/// A share of an exactly summed inner product.
struct DotPartial {
  std::int64_t digit[3] = {0, 0, 0};  // sums of the rounded terms' digits at 2^64, 2^32, 1
  double largest = 0;                 // the largest |term|; NaN once a term is NaN
};

/// The window the largest scaled term must fall in for a pass to count.
inline constexpr int kExactSumLowest = 60;   // 2^60 <= largest x 2^scale: resolution
inline constexpr int kExactSumHighest = 95;  // largest x 2^scale < 2^95: no digit overflows

/// One term of the volume-weighted inner product (flux_operator.hpp's DotArgs): the product in
/// double, then the node's weight (a power of two, so exact), on both backends alike.
FDSOLVE_HOST_DEVICE double dot_term(double a, double b, double weight) { return a * b * weight; }

/// The larger of two largest terms, NaN winning.
FDSOLVE_HOST_DEVICE double larger_term(double a, double b) {
  if (a != a) return a;
  return b != b || b > a ? b : a;
}

/// 2^scale where a double holds it (normal or subnormal), else 0. A product by it is the value
/// ldexp(term, scale) gives (the exact product, rounded once where it leaves the normal range,
/// infinite where it overflows), at a multiplication's cost: one per pass, not one per term.
FDSOLVE_HOST_DEVICE double exact_sum_factor(int scale) {
  return scale >= -1074 && scale <= 1023 ? ldexp(1.0, scale) : 0.0;
}

/// Adds `term` x 2^scale, rounded to the nearest integer, to `p`; `factor` is
/// exact_sum_factor(scale). A term too large for the window is clamped (its pass is repeated at
/// a smaller scale).
FDSOLVE_HOST_DEVICE void add_dot_term(DotPartial& p, double term, int scale, double factor) {
  p.largest = larger_term(p.largest, fabs(term));
  constexpr double kTop = 0x1p95;
  double x = rint(factor != 0.0 ? term * factor : ldexp(term, scale));
  x = x > kTop ? kTop : x < -kTop ? -kTop : x == x ? x : 0.0;
  // Every step is exact: truncation of an integer-valued double and differences of its parts.
  const double high = trunc(x * 0x1p-64);
  const double rest = x - high * 0x1p64;
  const double middle = trunc(rest * 0x1p-32);
  const double low = rest - middle * 0x1p32;
  p.digit[0] += static_cast<std::int64_t>(high);
  p.digit[1] += static_cast<std::int64_t>(middle);
  p.digit[2] += static_cast<std::int64_t>(low);
}

/// Merges another share into `p` (exact: integer sums and a maximum).
FDSOLVE_HOST_DEVICE void merge_dot(DotPartial& p, const DotPartial& o) {
  for (int d = 0; d < 3; ++d) p.digit[d] += o.digit[d];
  p.largest = larger_term(p.largest, o.largest);
}

}  // namespace fdsolve
