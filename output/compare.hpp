// Field-by-field comparison of two snapshots or two output directories, behind
// `fdsolve compare` and the regression tests.
#pragma once

#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output {

struct CompareReport {
  bool equal = true;
  std::vector<std::string> differences;  // one human-readable line each
  double max_abs_diff = 0;  // over all compared values whose difference is defined (no NaN)
  double max_rel_diff = 0;  // |a-b|/|b| over those values with b != 0
};

/// Compares A and B: two snapshot files, or two output directories (every `*_<8 digits>.h5`
/// snapshot present in both, by name; a snapshot in only one is a difference). Values are equal
/// when a == b or |a-b| <= atol + rtol*|b|, so NaN never is. Grid shape, origin, spacing, time,
/// iteration and field names must match (origin, spacing, time to 1e-12 relative or atol).
/// Throws OutputError when a path is missing or unreadable, or A and B are of different kinds.
CompareReport compare_paths(const std::string& a, const std::string& b, double rtol, double atol);

/// Compares two snapshots already read; `label` prefixes every difference line.
void compare_snapshots(const SnapshotData& a, const SnapshotData& b, double rtol, double atol,
                       const std::string& label, CompareReport& report);

}  // namespace fdsolve::output
