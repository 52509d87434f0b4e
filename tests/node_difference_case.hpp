// Fields for the shared-node difference tests (tests/unit and tests/gpu): a coarse field and a
// fine one through whose even nodes it passes, with hand-set differences there and huge values
// at the nodes the grids do not share.
#pragma once

#include <cmath>
#include <vector>

#include "node_difference.hpp"

namespace fdsolve::test {

template <typename T>
struct SharedNodesCase {
  Layout fine, coarse;
  Box box;  // coarse nodes compared
  std::vector<T> u_fine, u_coarse;
  double sum_sq = 0, max = 0;  // the expected results, by hand
  std::int64_t count = 0;
};

/// Coarse `nc` nodes per axis (fine 2 nc - 1); every shared node inside `box` differs by
/// 1/1024 (exact in float), node `big` of the box by 5/1024; odd fine nodes hold 1e9.
template <typename T>
SharedNodesCase<T> shared_nodes_case(int dims, index_t nc, Box box, std::array<index_t, 3> big) {
  SharedNodesCase<T> s;
  const index_t nf = 2 * nc - 1;
  s.fine = Layout::make(dims, {nf, nf, dims == 3 ? nf : 1}, 128 / sizeof(T));
  s.coarse = Layout::make(dims, {nc, nc, dims == 3 ? nc : 1}, 128 / sizeof(T));
  s.box = box;
  s.u_fine.assign(static_cast<std::size_t>(s.fine.size), T(1e9));
  s.u_coarse.assign(static_cast<std::size_t>(s.coarse.size), T(0));
  for (index_t K = 0; K < s.coarse.n[2]; ++K)
    for (index_t J = 0; J < nc; ++J)
      for (index_t I = 0; I < nc; ++I) {
        const T c = T(0.25 * I - 0.5 * J + 0.125 * K);
        const bool in = I >= box.lo[0] && I < box.hi[0] && J >= box.lo[1] && J < box.hi[1] &&
                        K >= box.lo[2] && K < box.hi[2];
        const bool is_big = I == big[0] && J == big[1] && K == big[2];
        const double d = is_big ? 5.0 / 1024 : 1.0 / 1024;
        s.u_coarse[s.coarse.at(I, J, K)] = c;
        s.u_fine[s.fine.at(2 * I, 2 * J, 2 * K)] = T(double(c) + (in ? d : 7.0));
      }
  s.count = box.cells();
  s.sum_sq = (s.count - 1) * std::pow(1.0 / 1024, 2) + std::pow(5.0 / 1024, 2);
  s.max = 5.0 / 1024;
  return s;
}

}  // namespace fdsolve::test
