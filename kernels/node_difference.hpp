// Richardson's comparison of a field with the solution on the grid through its every other
// node (solve.tolerance: discretization): the differences at the nodes the two grids share,
// reduced on the backend so that only a few numbers per row reach the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "layout.hpp"

namespace fdsolve {

/// Coarse node (I, J, K) of `coarse_box` is fine node (s I, s J, s K), s = `stride`; in 2D
/// K = 0. Stride 2: the grid through every other node; stride 1: two fields of one grid (the
/// change of u over a cycle).
template <typename T>
struct SharedNodesArgs {
  const T* fine = nullptr;
  Layout fine_layout;
  const T* coarse = nullptr;
  Layout coarse_layout;
  Box coarse_box;
  int stride = 2;
};

/// Over the shared nodes: the sum of the squared differences, the largest magnitude (a NaN
/// difference makes both NaN) and how many nodes there were.
struct NodeDifference {
  double sum_sq = 0;
  double max = 0;
  std::int64_t count = 0;
};

/// The root mean square of the differences (`l2`), or their largest magnitude.
inline double difference_norm(const NodeDifference& d, bool l2) {
  if (!l2) return d.max;
  return d.count > 0 ? std::sqrt(d.sum_sq / static_cast<double>(d.count)) : 0.0;
}

/// The backends' last step, on the host in row order (deterministic): the rows' sums of
/// squares and largest magnitudes, `per_row` nodes each.
inline NodeDifference merge_rows(const std::vector<double>& sum_sq,
                                 const std::vector<double>& max, std::int64_t per_row) {
  NodeDifference d;
  for (std::size_t r = 0; r < sum_sq.size(); ++r) {
    d.sum_sq += sum_sq[r];
    d.max = std::isnan(max[r]) || std::isnan(d.max) ? NAN : std::max(d.max, max[r]);
  }
  d.count = per_row * static_cast<std::int64_t>(sum_sq.size());
  return d;
}

}  // namespace fdsolve
