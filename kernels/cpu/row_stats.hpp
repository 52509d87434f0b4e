// Statistics of an updated row, accumulated inside the vectorised update loops of the CPU
// sweeps: plain doubles that `omp simd` can reduce as vector lanes.
#pragma once

#include <cmath>
#include <limits>

#include "../stencil.hpp"

namespace fdsolve::cpu {

/// The per-row accumulators; NaNs are counted rather than folded into the max so that every
/// reduction is a plain one.
struct RowStats {
  double sum_sq = 0, sum = 0, max_abs = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  index_t nans = 0;

  SweepStats stats(index_t count) const {
    SweepStats s;
    s.sum_sq = sum_sq;
    s.max_abs = nans ? std::numeric_limits<double>::quiet_NaN() : max_abs;
    s.count = count;
    s.min = lo;
    s.max = hi;
    s.sum = sum;
    return s;
  }
};

/// Adds the update prev -> next to the accumulators. Callers keep them in local variables
/// named in their loop's `omp simd` reduction clause and build a RowStats afterwards.
inline void accumulate(double prev, double next, double& sum_sq, double& sum, double& max_abs,
                       double& lo, double& hi, index_t& nans) {
  const double d = next - prev;
  const double ad = std::fabs(d);
  sum_sq += d * d;
  sum += next;
  nans += ad != ad;
  max_abs = ad > max_abs ? ad : max_abs;
  lo = next < lo ? next : lo;
  hi = next > hi ? next : hi;
}

}  // namespace fdsolve::cpu
