// The medium as output fields (output.fields `coefficient`, `fixed` and `capacity`): a rank's own
// nodes of the coefficient, of the held-node mask and of heat's capacity, dense in C order, for
// snapshots.
#pragma once

#include <cstdint>
#include <vector>

#include "host_array.hpp"
#include "medium.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve::op {

/// value(node) over the nodes `sub` owns, node the index of the whole grid.
template <typename T, typename Value>
HostArray<T> owned_values(const Medium& m, const Subdomain& sub, Value value) {
  HostArray<T> out(
      static_cast<std::size_t>(sub.n[0] * sub.n[1] * sub.n[2]));  // first touched below
#pragma omp parallel for collapse(2) schedule(static)
  for (index_t k = 0; k < sub.n[2]; ++k)
    for (index_t j = 0; j < sub.n[1]; ++j)
      for (index_t i = 0; i < sub.n[0]; ++i)
        out[static_cast<std::size_t>((k * sub.n[1] + j) * sub.n[0] + i)] =
            static_cast<T>(value(m.index(sub.offset[0] + i, sub.offset[1] + j, sub.offset[2] + k)));
  return out;
}

/// The coefficient (beta, or heat's k) at the nodes `sub` owns.
template <typename T>
HostArray<T> coefficient_field(const Medium& m, const Subdomain& sub) {
  return owned_values<T>(m, sub, [&](index_t node) { return m.beta_at(node); });
}

/// Heat's capacity c at the nodes `sub` owns.
template <typename T>
HostArray<T> capacity_field(const Medium& m, const Subdomain& sub) {
  return owned_values<T>(m, sub, [&](index_t node) { return m.capacity_at(node); });
}

/// 1 where a node is held by problem.fixed, else 0, at the nodes `sub` owns (the `fixed` field,
/// stored as bytes).
inline HostArray<std::uint8_t> fixed_mask(const Medium& m, const Subdomain& sub) {
  return owned_values<std::uint8_t>(m, sub,
                                    [&](index_t node) { return m.holds() && m.held[node] ? 1 : 0; });
}

}  // namespace fdsolve::op
