// `fdsolve check` on a large grid: the medium's formulas checked at sample nodes instead of
// resolve_medium's evaluation of every node.
#pragma once

#include <array>

#include "case.hpp"

namespace fdsolve::op {

/// Whether `check` may sample the medium of `c`: its coefficient, capacity and held regions are numbers
/// or expressions (no data file) and the grid has more than kSampleEveryNode nodes.
bool medium_can_be_sampled(const Case& c);

/// The coefficient and the capacity (finite and > 0) and the held regions (`where` finite; `value` finite where
/// `where` holds) at the sample nodes of the grid, with resolve_medium's messages. What it
/// cannot see at samples (a region holding every node, or none) is left to the run. Returns
/// the smallest and largest coefficient seen at the samples.
std::array<double, 2> check_medium_sampled(const Case& c);

}  // namespace fdsolve::op
