// What a check reports about a field pair (u before and after a sweep): range and mean of u,
// norms and a logarithmic histogram of the update, its percentiles, and where u is not finite.
// Plain types only; the bin of a value is one FDSOLVE_HOST_DEVICE function shared by backends.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "point_update.hpp"  // FDSOLVE_HOST_DEVICE

namespace fdsolve {

/// Bins of |d| for d = u' - u (d formed in double: double(u') - double(u)). Each power of two
/// 2^e, e in [kHistMinExponent, kHistMaxExponent], is split into kHistSubBins equal bins by the
/// leading mantissa bits (log-linear, as in HdrHistogram), so every edge is an exact double
/// and a bin is found from the bits of |d| alone, identically on host and device:
///   bin 0                 |d| == 0 exactly
///   bin 1                 0 < |d| < 2^-100 (~7.9e-31; underflow, subnormals included)
///   bins 2 .. 537         [2^e (1 + s/4), 2^e (1 + (s+1)/4)) for e = -100..33, s = 0..3,
///                         at 2 + 4 (e + 100) + s: a bin spans a factor 1.14 to 1.25
///   bin 538               2^34 (~1.7e10) <= |d| < inf (overflow, finite)
///   bin 539               d not finite (NaN or +-Inf): counted apart from the others
inline constexpr int kHistMinExponent = -100;
inline constexpr int kHistMaxExponent = 33;
inline constexpr int kHistSubBinBits = 2;
inline constexpr int kHistSubBins = 1 << kHistSubBinBits;
inline constexpr int kHistZeroBin = 0;
inline constexpr int kHistUnderflowBin = 1;
inline constexpr int kHistFirstLogBin = 2;
inline constexpr int kHistOverflowBin =
    kHistFirstLogBin + (kHistMaxExponent - kHistMinExponent + 1) * kHistSubBins;
inline constexpr int kHistNonfiniteBin = kHistOverflowBin + 1;
inline constexpr int kHistBins = kHistNonfiniteBin + 1;
static_assert(kHistBins == 540);

/// The bits of a double (std::bit_cast is not available in device code).
FDSOLVE_HOST_DEVICE std::uint64_t double_bits(double v) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(v));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
#endif
}

/// The histogram bin of an update d (see above). Exact: integer operations on the bits only.
FDSOLVE_HOST_DEVICE int update_bin(double d) {
  const std::uint64_t bits = double_bits(d) & 0x7fffffffffffffffull;  // |d|
  if (bits == 0) return kHistZeroBin;
  const int biased = static_cast<int>(bits >> 52);
  if (biased == 0x7ff) return kHistNonfiniteBin;
  const int e = biased - 1023;  // subnormals (biased 0) land in the underflow bin
  if (e < kHistMinExponent) return kHistUnderflowBin;
  if (e > kHistMaxExponent) return kHistOverflowBin;
  const int sub = static_cast<int>((bits >> (52 - kHistSubBinBits)) & (kHistSubBins - 1));
  return kHistFirstLogBin + (e - kHistMinExponent) * kHistSubBins + sub;
}

/// Smallest |d| of bin `b` (0 for the zero and underflow bins, NaN for the non-finite bin).
inline double bin_lower_edge(int b) {
  if (b <= kHistUnderflowBin) return 0.0;
  if (b == kHistOverflowBin) return std::ldexp(1.0, kHistMaxExponent + 1);
  if (b >= kHistNonfiniteBin) return std::numeric_limits<double>::quiet_NaN();
  const int i = b - kHistFirstLogBin;
  return std::ldexp(1.0 + double(i % kHistSubBins) / kHistSubBins,
                    kHistMinExponent + i / kHistSubBins);
}

/// Upper edge of bin `b`: every |d| in it is below this (the zero bin: equal to 0). The
/// overflow bin's is +inf, the non-finite bin's NaN.
inline double bin_upper_edge(int b) {
  if (b == kHistZeroBin) return 0.0;
  if (b == kHistOverflowBin) return std::numeric_limits<double>::infinity();
  if (b >= kHistNonfiniteBin) return std::numeric_limits<double>::quiet_NaN();
  return bin_lower_edge(b + 1);
}

/// The `percent`-th percentile (0 < percent <= 100) of the finite updates read from the
/// cumulative counts `cdf` (cdf[b] = updates in bins 0..b): the upper edge of the first bin b
/// with cdf[b] * 100 >= percent * M, M = cdf[kHistNonfiniteBin - 1] the finite updates
/// (integer arithmetic, so exact). An upper bound of the true percentile, within one bin
/// (a factor 1.25) of it; 0 when at least that share of the updates is exactly 0. NaN when
/// there are no finite updates.
inline double percentile_from_cdf(const std::array<std::int64_t, kHistBins>& cdf, int percent) {
  const std::int64_t finite = cdf[kHistNonfiniteBin - 1];
  if (finite <= 0) return std::numeric_limits<double>::quiet_NaN();
  for (int b = 0; b < kHistNonfiniteBin; ++b)
    if (cdf[b] * 100 >= static_cast<std::int64_t>(percent) * finite) return bin_upper_edge(b);
  return bin_upper_edge(kHistNonfiniteBin - 1);  // not reached: cdf[last finite] == finite
}

/// Whether update magnitude `a` at linear owned-node index `ia` ranks above `b` at `ib` in the
/// choice of linf_at: NaN above every number, then the larger value, then the lower index; an
/// index of -1 (no node) ranks below everything. A total order, so any reduction order picks
/// the same node on every backend.
FDSOLVE_HOST_DEVICE bool ranks_above(double a, std::int64_t ia, double b, std::int64_t ib) {
  if (ia < 0) return false;
  if (ib < 0) return true;
  const bool an = a != a, bn = b != b;
  if (an != bn) return an;
  if (!an && a != b) return a > b;
  return ia < ib;
}

/// Non-finite nodes reported by their coordinates, at most this many.
inline constexpr int kMaxNonfiniteLocations = 10;

/// The diagnostics of one check over `prev` (u before the sweep) and `cur` (u after it).
/// Over the owned nodes of cur: range, mean and the non-finite values. Over the updated box:
/// the update d = cur - prev. Sums are accumulated in double in a fixed order: every backend
/// gives bit-identical results run to run; backends agree exactly on counts, bins, percentiles
/// and locations, and to rounding on the sums (mean, l2).
struct Diagnostics {
  // Owned nodes of cur.
  std::int64_t nodes = 0;                                 // owned nodes
  double min = std::numeric_limits<double>::infinity();   // NaNs ignored; +-Inf count
  double max = -std::numeric_limits<double>::infinity();  // NaNs ignored; +-Inf count
  double mean = 0;                                        // sum / nodes; NaN/Inf propagate
  double sum = 0;              // of cur over the owned nodes: what ranks add up for the global mean
  std::int64_t nonfinite = 0;  // NaN and +-Inf values
  /// The first (lowest C-order index: k, then j, then i) kMaxNonfiniteLocations non-finite
  /// nodes as (i, j, k); k = 0 in 2D.
  std::vector<std::array<std::int64_t, 3>> nonfinite_at;

  // The update d over the updated box.
  std::int64_t updated = 0;  // nodes of the box
  double sum_sq = 0;         // sum of d^2
  double l2 = 0;             // sqrt(sum_sq / updated); 0 for an empty box
  double linf = 0;           // max |d|; NaN when any d is NaN
  /// (i, j, k) of the node of linf (ranks_above: the first NaN update, else the first node of
  /// the largest |d|, in C order); {-1, -1, -1} for an empty box.
  std::array<std::int64_t, 3> linf_at{-1, -1, -1};
  std::array<std::int64_t, kHistBins> histogram{};        // updates per bin (update_bin)
  std::array<std::int64_t, kHistBins> cdf{};              // inclusive prefix sums of histogram
  double p50 = std::numeric_limits<double>::quiet_NaN();  // percentile_from_cdf(cdf, 50)
  double p90 = std::numeric_limits<double>::quiet_NaN();
  double p99 = std::numeric_limits<double>::quiet_NaN();

  /// Updates that are NaN or +-Inf (the last histogram bin).
  std::int64_t nonfinite_updates() const { return histogram[kHistNonfiniteBin]; }

  /// Fills the derived fields (mean, l2, p50/p90/p99) from the raw ones and `sum` (the sum
  /// of cur over the owned nodes). `cdf` must be filled already.
  void finish(double total) {
    sum = total;
    mean = nodes > 0 ? total / static_cast<double>(nodes) : 0.0;
    l2 = updated > 0 ? std::sqrt(sum_sq / static_cast<double>(updated)) : 0.0;
    p50 = percentile_from_cdf(cdf, 50);
    p90 = percentile_from_cdf(cdf, 90);
    p99 = percentile_from_cdf(cdf, 99);
  }
};

/// Node (i, j, k) of linear owned-node index `n` (C order, x fastest).
inline std::array<std::int64_t, 3> owned_node(const Layout& layout, std::int64_t n) {
  const std::int64_t row = n / layout.n[0];
  return {n % layout.n[0], row % layout.n[1], row / layout.n[1]};
}

/// Throws std::invalid_argument unless `updated` is empty or lies inside the owned nodes.
inline void check_diagnose_box(const Layout& layout, const Box& updated) {
  if (updated.empty()) return;
  for (int a = 0; a < 3; ++a)
    if (updated.lo[a] < 0 || updated.hi[a] > layout.n[a])
      throw std::invalid_argument("diagnose: the updated box leaves the owned nodes on axis " +
                                  std::to_string(a));
}

}  // namespace fdsolve
