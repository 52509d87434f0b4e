// Field-by-field comparison of two snapshots or two output directories, behind
// `fdsolve compare` and the regression tests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output {

/// Node index (i, j, k) of a value, x fastest; k is 0 in 2D.
using NodeIndex = std::array<std::int64_t, 3>;

/// One field of one snapshot pair, compared value by value.
struct FieldComparison {
  std::string label;  // "<snapshot>: " for directories, "" for two files
  std::string field;
  int dims = 2;
  std::size_t values = 0;
  std::size_t outside = 0;     // values with |a-b| > atol + rtol*|b| (NaN pairs included)
  std::size_t nan_values = 0;  // positions where a or b is NaN
  double max_abs = 0;          // max |a-b| over positions without NaN
  NodeIndex max_abs_at{0, 0, 0};
  double max_rel = 0;  // max |a-b|/|b| over those positions (inf where b == 0 != a)
  NodeIndex max_rel_at{0, 0, 0};
  NodeIndex first_nan_at{0, 0, 0};
  // The outside value with the largest |a-b| (NaN ranks above every number).
  NodeIndex worst_at{0, 0, 0};
  double worst_a = 0;
  double worst_b = 0;
  bool equal() const { return outside == 0; }
};

struct CompareReport {
  bool equal = true;
  /// One line per difference: grid or metadata mismatch, missing field or snapshot, or a
  /// field with values outside the tolerance.
  std::vector<std::string> differences;
  /// Directories: "NAME: only in DIR" for each snapshot whose iteration the other lacks; not
  /// compared, and no difference unless it is the last of its directory.
  std::vector<std::string> one_side;
  std::size_t snapshots_compared = 0;   // directories: the snapshot pairs compared
  std::vector<FieldComparison> fields;  // every field compared, equal or not
  double max_abs_diff = 0;              // over all fields: the largest FieldComparison::max_abs
  double max_rel_diff = 0;              // over all fields: the largest FieldComparison::max_rel
};

/// Compares A and B: two snapshot files, or two output directories, whose snapshots
/// (`<name>_<iteration, 8 or more digits>.h5`) are matched by iteration, so runs of cases with
/// different names compare; the iterations both hold are compared, and a snapshot in only one
/// is listed in `one_side`, a difference only when the directories' last snapshots are of
/// different iterations (the runs ended apart). Values are equal when
/// a == b or |a-b| <= atol + rtol*|b|, so any NaN is a difference. Grid shape, origin,
/// spacing, time, iteration and field names must match (origin, spacing and time to 1e-12
/// relative or atol). Throws OutputError when a path is missing, is not a snapshot (no field
/// datasets) or not HDF5, a directory holds no snapshot or two of one iteration, A and B are
/// of different kinds, or a tolerance is negative or not finite.
CompareReport compare_paths(const std::string& a, const std::string& b, double rtol, double atol);

/// Compares two snapshots already read; `label` prefixes every difference line.
void compare_snapshots(const SnapshotData& a, const SnapshotData& b, double rtol, double atol,
                       const std::string& label, CompareReport& report);

/// "(i, j)" or "(i, j, k)".
std::string node_text(const NodeIndex& node, int dims);

/// One line for `fdsolve compare`: label, field, max abs and rel error and where, and how many
/// values are outside the tolerance or NaN.
std::string describe(const FieldComparison& field);

}  // namespace fdsolve::output
