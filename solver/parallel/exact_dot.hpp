// Inner products of the flux operator's fields over every rank, summed exactly
// (kernels/exact_sum.hpp): the same bits on 1, 2 or 4 ranks, on either backend, whatever the
// split. Each call site keeps its own ExactDot, whose scale is the last product's: a product
// that moves by less than 2^17 from the last takes one pass over the fields and one collective.
#pragma once

#include <cstdint>

#include "backend_capabilities.hpp"
#include "comm.hpp"

namespace fdsolve::parallel {

/// The scale that puts `largest` (> 0, finite) x 2^scale in [2^78, 2^79): the middle of the
/// window kExactSumLowest..kExactSumHighest.
int exact_sum_scale(double largest);
/// Whether a pass at `scale` whose largest term is `largest` stands: its largest scaled term
/// lies in the window (a zero or non-finite largest stands at any scale).
bool exact_sum_fits(double largest, int scale);
/// The value of the digits' sums at `scale`, rounded once to double.
double exact_sum_value(const std::int64_t digits[3], int scale);

class ExactDot {
 public:
  explicit ExactDot(Comm comm) : comm_(comm) {}

  /// The volume-weighted inner product of args' fields over every rank's box.
  template <typename T>
  double operator()(FluxOperations<T>& ops, const DotArgs<T>& args);

 private:
  /// Every rank's share merged (exact in any order).
  DotPartial merged(const DotPartial& mine) const;

  Comm comm_;
  int scale_ = 0;
  bool known_ = false;  // scale_ comes from an earlier product
};

}  // namespace fdsolve::parallel
