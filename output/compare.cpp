// Implements compare.hpp: grid and metadata checks first, then values elementwise, keeping per
// field the largest absolute and relative error with their (i, j[, k]) node index.
#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>

#include "format_number.hpp"
#include "output_error.hpp"

namespace fdsolve::output {
namespace {

namespace fs = std::filesystem;

std::string shape_text(const GridMeta& grid) {
  std::string text = std::to_string(grid.points[0]);
  for (int axis = 1; axis < grid.dims; ++axis) {
    text += 'x';  // appended separately: "x" + to_string trips GCC 12's -Wrestrict false positive
    text += std::to_string(grid.points[axis]);
  }
  return text;
}

// Metadata such as spacing is computed the same way by every backend, but may be printed and
// parsed on the way: allow rounding noise, never a real shift.
bool close_metadata(double a, double b, double atol) {
  return a == b || std::abs(a - b) <= atol + 1e-12 * std::max(std::abs(a), std::abs(b));
}

NodeIndex node_of(const GridMeta& grid, std::size_t index) {
  const auto nx = static_cast<std::size_t>(grid.points[0]);
  const auto ny = static_cast<std::size_t>(grid.points[1]);
  return {static_cast<std::int64_t>(index % nx), static_cast<std::int64_t>(index / nx % ny),
          static_cast<std::int64_t>(index / (nx * ny))};
}

std::string scientific(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3e", value);
  return buffer;
}

// `components` values per node (a vector field's): the node of value i is i / components.
FieldComparison compare_values(const std::vector<double>& a, const std::vector<double>& b,
                               const GridMeta& grid, double rtol, double atol, int components) {
  FieldComparison result;
  result.dims = grid.dims;
  result.values = a.size();
  std::size_t max_abs_at = 0, max_rel_at = 0, worst_at = 0, first_nan_at = a.size();
  double worst_rank = -1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool nan = std::isnan(a[i]) || std::isnan(b[i]);
    // a == b first: equal infinities differ by NaN but are the same value.
    const double diff = a[i] == b[i] ? 0.0 : std::abs(a[i] - b[i]);
    if (nan) {
      ++result.nan_values;
      if (first_nan_at == a.size()) first_nan_at = i;
    } else {
      if (diff > result.max_abs) result.max_abs = diff, max_abs_at = i;
      const double rel = diff == 0 ? 0.0 : b[i] == 0 ? INFINITY : diff / std::abs(b[i]);
      if (rel > result.max_rel) result.max_rel = rel, max_rel_at = i;
    }
    const bool within = !nan && (a[i] == b[i] || diff <= atol + rtol * std::abs(b[i]));
    if (within) continue;
    ++result.outside;
    const double rank = nan ? INFINITY : diff;
    if (rank > worst_rank) worst_rank = rank, worst_at = i;
  }
  const auto per = static_cast<std::size_t>(components);
  result.max_abs_at = node_of(grid, max_abs_at / per);
  result.max_rel_at = node_of(grid, max_rel_at / per);
  if (first_nan_at < a.size()) result.first_nan_at = node_of(grid, first_nan_at / per);
  if (result.outside > 0) {
    result.worst_at = node_of(grid, worst_at / per);
    result.worst_a = a[worst_at];
    result.worst_b = b[worst_at];
  }
  return result;
}

void add_field(FieldComparison field, const std::string& label, const std::string& name,
               CompareReport& report) {
  field.label = label;
  field.field = name;
  report.max_abs_diff = std::max(report.max_abs_diff, field.max_abs);
  report.max_rel_diff = std::max(report.max_rel_diff, field.max_rel);
  if (!field.equal()) {
    std::string line = label + name + ": " + std::to_string(field.outside) + " of " +
                       std::to_string(field.values) + " values differ";
    if (field.nan_values > 0) line += " (" + std::to_string(field.nan_values) + " NaN)";
    line += "; worst at " + node_text(field.worst_at, field.dims) + ": " +
            format_double(field.worst_a) + " vs " + format_double(field.worst_b);
    report.differences.push_back(line);
  }
  report.fields.push_back(std::move(field));
}

// Snapshots of a directory by iteration, from their names `<name>_<digits>.h5`.
std::map<std::int64_t, std::string> snapshots_by_iteration(const fs::path& directory) {
  static const std::regex pattern(R"(.+_([0-9]{8,18})\.h5)");
  std::map<std::int64_t, std::string> found;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::smatch match;
    if (!it->is_regular_file() || !std::regex_match(name, match, pattern)) continue;
    const std::int64_t iteration = std::stoll(match[1].str());
    const auto [at, inserted] = found.emplace(iteration, name);
    if (!inserted) {
      throw OutputError("compare: '" + directory.string() + "' holds two snapshots of iteration " +
                        std::to_string(iteration) + " (" + at->second + ", " + name +
                        "): compare the files one by one");
    }
  }
  if (error)
    throw OutputError("compare: cannot list '" + directory.string() + "': " + error.message());
  if (found.empty()) {
    throw OutputError("compare: '" + directory.string() +
                      "' holds no snapshot (<name>_<iteration>.h5)");
  }
  return found;
}

SnapshotData read_for_compare(const std::string& path) {
  SnapshotData data = read_snapshot(path);
  if (data.names.empty()) {
    throw OutputError("compare: '" + path + "' is not an fdsolve snapshot: it holds no field");
  }
  return data;
}

// Snapshots are matched by iteration and the common ones compared. A snapshot of one directory
// only is named but is no difference: a resumed run holds the snapshot its interrupt wrote, which
// the uninterrupted run lacks. The last snapshots must match, so that two runs that end at
// different iterations never compare equal on what came before.
void compare_directories(const std::string& a, const std::string& b, double rtol, double atol,
                         CompareReport& report) {
  const auto in_a = snapshots_by_iteration(a);
  const auto in_b = snapshots_by_iteration(b);
  for (const auto& [iteration, name] : in_a) {
    const auto match = in_b.find(iteration);
    if (match == in_b.end()) {
      report.one_side.push_back(name + ": only in " + a);
      continue;
    }
    const std::string label = name == match->second ? name : name + " vs " + match->second;
    compare_snapshots(read_for_compare((fs::path(a) / name).string()),
                      read_for_compare((fs::path(b) / match->second).string()), rtol, atol,
                      label + ": ", report);
    ++report.snapshots_compared;
  }
  for (const auto& [iteration, name] : in_b) {
    if (in_a.count(iteration) == 0) report.one_side.push_back(name + ": only in " + b);
  }
  const auto& [last_a, name_a] = *in_a.rbegin();
  const auto& [last_b, name_b] = *in_b.rbegin();
  if (last_a != last_b) {
    report.differences.push_back("the runs end at different iterations: the last snapshot is " +
                                 name_a + " (iteration " + std::to_string(last_a) + ") in " + a +
                                 ", " + name_b + " (iteration " + std::to_string(last_b) + ") in " +
                                 b);
  }
}

}  // namespace

std::string node_text(const NodeIndex& node, int dims) {
  std::string text = "(" + std::to_string(node[0]) + ", " + std::to_string(node[1]);
  if (dims == 3) text += ", " + std::to_string(node[2]);
  return text + ")";
}

std::string describe(const FieldComparison& f) {
  std::string line = f.label + f.field + ": max abs diff " + scientific(f.max_abs);
  if (f.max_abs > 0) line += " at " + node_text(f.max_abs_at, f.dims);
  line += ", max rel diff " + scientific(f.max_rel);
  if (f.max_rel > 0) line += " at " + node_text(f.max_rel_at, f.dims);
  if (f.nan_values > 0) {
    line += ", " + std::to_string(f.nan_values) + " NaN (first at " +
            node_text(f.first_nan_at, f.dims) + ")";
  }
  line += "; " + std::to_string(f.outside) + " of " + std::to_string(f.values) +
          " values outside the tolerance";
  return line;
}

void compare_snapshots(const SnapshotData& a, const SnapshotData& b, double rtol, double atol,
                       const std::string& label, CompareReport& report) {
  const std::size_t before = report.differences.size();
  auto differ = [&](const std::string& what) { report.differences.push_back(label + what); };
  const GridMeta& ga = a.info.grid;
  const GridMeta& gb = b.info.grid;
  const bool same_shape = ga.dims == gb.dims && ga.points == gb.points;
  if (!same_shape) differ("grid shape differs: " + shape_text(ga) + " vs " + shape_text(gb));
  for (int axis = 0; axis < std::min(ga.dims, gb.dims); ++axis) {
    const std::string name(1, "xyz"[axis]);
    if (!close_metadata(ga.origin[axis], gb.origin[axis], atol)) {
      differ("origin " + name + " differs: " + format_double(ga.origin[axis]) + " vs " +
             format_double(gb.origin[axis]));
    }
    if (!close_metadata(ga.spacing[axis], gb.spacing[axis], atol)) {
      differ("spacing " + name + " differs: " + format_double(ga.spacing[axis]) + " vs " +
             format_double(gb.spacing[axis]));
    }
  }
  if (a.info.iteration != b.info.iteration) {
    differ("iteration differs: " + std::to_string(a.info.iteration) + " vs " +
           std::to_string(b.info.iteration));
  }
  if (!close_metadata(a.info.time, b.info.time, atol)) {
    differ("time differs: " + format_double(a.info.time) + " vs " + format_double(b.info.time));
  }
  for (std::size_t i = 0; i < a.names.size(); ++i) {
    const auto in_b = std::find(b.names.begin(), b.names.end(), a.names[i]);
    if (in_b == b.names.end()) {
      differ("field " + a.names[i] + " only in the first");
    } else if (same_shape) {
      const auto& values_b = b.fields[static_cast<std::size_t>(in_b - b.names.begin())];
      add_field(compare_values(a.fields[i], values_b, ga, rtol, atol,
                               field_components(a.names[i], ga.dims)),
                label, a.names[i], report);
    }
  }
  for (const std::string& name : b.names) {
    if (std::find(a.names.begin(), a.names.end(), name) == a.names.end()) {
      differ("field " + name + " only in the second");
    }
  }
  if (report.differences.size() != before) report.equal = false;
}

CompareReport compare_paths(const std::string& a, const std::string& b, double rtol, double atol) {
  if (!(rtol >= 0) || !(atol >= 0) || !std::isfinite(rtol) || !std::isfinite(atol)) {
    throw OutputError("compare: rtol and atol must be finite and non-negative");
  }
  for (const std::string& path : {a, b}) {
    if (!fs::exists(path)) throw OutputError("compare: '" + path + "' does not exist");
  }
  CompareReport report;
  if (fs::is_directory(a) && fs::is_directory(b)) {
    compare_directories(a, b, rtol, atol, report);
  } else if (!fs::is_directory(a) && !fs::is_directory(b)) {
    compare_snapshots(read_for_compare(a), read_for_compare(b), rtol, atol, "", report);
  } else {
    throw OutputError("compare: '" + a + "' and '" + b +
                      "' must both be snapshot files or both directories");
  }
  report.equal = report.differences.empty();
  return report;
}

}  // namespace fdsolve::output
