// See exact_dot.hpp.
#include "exact_dot.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace fdsolve::parallel {

int exact_sum_scale(double largest) { return 78 - std::ilogb(largest); }

bool exact_sum_fits(double largest, int scale) {
  if (!(largest > 0) || !std::isfinite(largest)) return true;
  const int top = std::ilogb(largest) + scale;  // 2^top <= largest x 2^scale < 2^(top + 1)
  return top >= kExactSumLowest && top < kExactSumHighest;
}

double exact_sum_value(const std::int64_t digits[3], int scale) {
  // At most 2^31 terms below 2^95 each: the total fits 127 bits.
  const __int128 total = (static_cast<__int128>(digits[0]) << 64) +
                         (static_cast<__int128>(digits[1]) << 32) +
                         static_cast<__int128>(digits[2]);
  return std::ldexp(static_cast<double>(total), -scale);
}

DotPartial ExactDot::merged(const DotPartial& mine) const {
  if (!comm_.several()) return mine;
  const std::vector<char> all = comm_.allgather(&mine, sizeof mine);
  DotPartial total;
  for (std::size_t r = 0; r < all.size() / sizeof mine; ++r) {
    DotPartial one;
    std::memcpy(&one, all.data() + r * sizeof mine, sizeof mine);
    merge_dot(total, one);
  }
  return total;
}

template <typename T>
double ExactDot::operator()(FluxOperations<T>& ops, const DotArgs<T>& args) {
  // A pass at the last product's scale stands when its largest term fits the window; else
  // (and for the first product, which has no last) the largest term sets the scale, and the
  // second pass fits by construction.
  for (;;) {
    const int used = known_ ? scale_ : 0;
    const DotPartial total = merged(ops.dot_terms(args, used));
    if (!std::isfinite(total.largest)) return std::numeric_limits<double>::quiet_NaN();
    if (total.largest == 0) return 0.0;  // every term zero
    if (known_ && exact_sum_fits(total.largest, used)) return exact_sum_value(total.digit, used);
    scale_ = exact_sum_scale(total.largest);
    known_ = true;
  }
}

template double ExactDot::operator()(FluxOperations<float>&, const DotArgs<float>&);
template double ExactDot::operator()(FluxOperations<double>&, const DotArgs<double>&);

}  // namespace fdsolve::parallel
