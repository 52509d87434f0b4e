// Helpers the files of resolve_medium share (medium.cpp, held_regions.cpp): how messages name
// a node and a value, and a value's numbers at every node.
#pragma once

#include <array>
#include <string>

#include "case.hpp"
#include "host_array.hpp"
#include "medium.hpp"

namespace fdsolve::op::detail {

/// The node (i, j, k) of index `linear` of m's grid (C order, x fastest).
inline std::array<index_t, 3> node_of(const Medium& m, index_t linear) {
  return {linear % m.n[0], linear / m.n[0] % m.n[1], linear / (m.n[0] * m.n[1])};
}

/// "at node (i, j) = (3, 4), (x, y) = (0.3, 0.4)".
std::string at_node(const Case& c, const std::array<index_t, 3>& node);

/// A value as messages print it: NaN without a sign (host and device set it differently).
std::string number_text(double v);

/// `v` (a number, a formula or a data file) at every node of the whole grid: a formula on
/// `on_backend` when there is one, else on the host on all threads, the evaluating threads
/// touching the array's pages first. Throws InputError naming `key` (and the first node in C
/// order where a formula is not finite).
HostArray<double> node_values(const Case& c, const Value& v, const std::string& key,
                              const NodeEvaluator& on_backend);
/// 1 where the expression `v` is non-zero at a node, else 0, evaluated by on_backend.nonzero
/// (which the caller checked is there); errors as node_values.
HostArray<std::uint8_t> node_nonzero(const Case& c, const Value& v, const std::string& key,
                                     const NodeEvaluator& on_backend);

/// The held nodes of problem.fixed and their values (Medium::held, held_value, held_count),
/// checked as resolve_medium says.
void resolve_held(const Case& c, Medium& m, const NodeEvaluator& on_backend);

}  // namespace fdsolve::op::detail
