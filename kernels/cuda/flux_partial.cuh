// One block's share of a checked flux sweep's statistics (SweepStats over the nodes that are not
// held, in double, as the CPU accumulates them), how two shares merge, and how a node adds to
// one: shared by the one-thread-per-node checked sweep (flux.cu) and the marching one
// (flux_march.cu), so that both count a node alike.
#pragma once

#include <cuda_runtime.h>

namespace fdsolve::cuda {

struct FluxPartial {
  double sum_sq, max_abs, min, max, sum;
  unsigned long long count;
};

__host__ __device__ inline FluxPartial flux_identity() {
  return {0.0, 0.0, __builtin_huge_val(), -__builtin_huge_val(), 0.0, 0ull};
}

/// Merges two partials as SweepStats::merge does: NaN in max_abs propagates.
struct FluxCombine {
  __device__ FluxPartial operator()(const FluxPartial& a, const FluxPartial& b) const {
    FluxPartial r;
    r.sum_sq = a.sum_sq + b.sum_sq;
    r.max_abs = (b.max_abs > a.max_abs || isnan(b.max_abs)) ? b.max_abs : a.max_abs;
    r.min = fmin(a.min, b.min);
    r.max = fmax(a.max, b.max);
    r.sum = a.sum + b.sum;
    r.count = a.count + b.count;
    return r;
  }
};

/// Adds a node that is not held: `prev` keep * u, `next` the value written, `state` the value
/// whose range is kept (the value written, or u itself for a residual).
__device__ __forceinline__ void flux_accumulate(FluxPartial& acc, double prev, double next,
                                                double state) {
  const double d = next - prev;
  acc.sum_sq += d * d;
  const double ad = fabs(d);
  if (ad > acc.max_abs || isnan(ad)) acc.max_abs = ad;
  acc.min = fmin(acc.min, state);
  acc.max = fmax(acc.max, state);
  acc.sum += state;
  ++acc.count;
}

}  // namespace fdsolve::cuda
