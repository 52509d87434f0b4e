// Implements compare.hpp: grid and metadata checks first, then values elementwise, reporting
// how many differ and the worst one with its (x, y, z) node index.
#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <set>

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

std::string node_text(const GridMeta& grid, size_t index) {
  const auto nx = static_cast<size_t>(grid.points[0]);
  const auto ny = static_cast<size_t>(grid.points[1]);
  std::string text = "(x " + std::to_string(index % nx) + ", y " + std::to_string(index / nx % ny);
  if (grid.dims == 3) text += ", z " + std::to_string(index / (nx * ny));
  return text + ")";
}

void compare_values(const std::vector<double>& a, const std::vector<double>& b,
                    const GridMeta& grid, double rtol, double atol, const std::string& label,
                    CompareReport& report) {
  size_t differing = 0;
  size_t worst = a.size();
  double worst_diff = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    const double diff = std::abs(a[i] - b[i]);
    const bool equal = a[i] == b[i] || diff <= atol + rtol * std::abs(b[i]);
    if (!std::isnan(diff)) {
      report.max_abs_diff = std::max(report.max_abs_diff, a[i] == b[i] ? 0.0 : diff);
      if (b[i] != 0 && a[i] != b[i]) {
        report.max_rel_diff = std::max(report.max_rel_diff, diff / std::abs(b[i]));
      }
    }
    if (!equal) {
      ++differing;
      // NaN ranks above every number: it is the worst kind of difference.
      const double rank = std::isnan(diff) ? INFINITY : diff;
      if (rank > worst_diff) {
        worst_diff = rank;
        worst = i;
      }
    }
  }
  if (differing == 0) return;
  report.differences.push_back(label + std::to_string(differing) + " of " +
                               std::to_string(a.size()) + " values differ; worst at " +
                               node_text(grid, worst) + ": " + format_double(a[worst]) + " vs " +
                               format_double(b[worst]));
}

bool is_snapshot_name(const std::string& name) {
  static const std::regex pattern(R"(.+_[0-9]{8}\.h5)");
  return std::regex_match(name, pattern);
}

std::set<std::string> snapshot_names(const fs::path& directory) {
  std::set<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && is_snapshot_name(name)) names.insert(name);
  }
  if (error) {
    throw OutputError("cannot list '" + directory.string() + "': " + error.message());
  }
  return names;
}

}  // namespace

void compare_snapshots(const SnapshotData& a, const SnapshotData& b, double rtol, double atol,
                       const std::string& label, CompareReport& report) {
  const size_t before = report.differences.size();
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
  for (size_t i = 0; i < a.names.size(); ++i) {
    const auto in_b = std::find(b.names.begin(), b.names.end(), a.names[i]);
    if (in_b == b.names.end()) {
      differ("field " + a.names[i] + " only in the first");
    } else if (same_shape) {
      const auto& values_b = b.fields[static_cast<size_t>(in_b - b.names.begin())];
      compare_values(a.fields[i], values_b, ga, rtol, atol, label + a.names[i] + ": ", report);
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
    const std::set<std::string> names_a = snapshot_names(a);
    const std::set<std::string> names_b = snapshot_names(b);
    if (names_a.empty() && names_b.empty()) {
      throw OutputError("compare: no snapshot files in '" + a + "' or '" + b + "'");
    }
    for (const std::string& name : names_a) {
      if (names_b.count(name) == 0) {
        report.differences.push_back(name + ": only in " + a);
        continue;
      }
      compare_snapshots(read_snapshot((fs::path(a) / name).string()),
                        read_snapshot((fs::path(b) / name).string()), rtol, atol, name + ": ",
                        report);
    }
    for (const std::string& name : names_b) {
      if (names_a.count(name) == 0) report.differences.push_back(name + ": only in " + b);
    }
  } else if (!fs::is_directory(a) && !fs::is_directory(b)) {
    compare_snapshots(read_snapshot(a), read_snapshot(b), rtol, atol, "", report);
  } else {
    throw OutputError("compare: '" + a + "' and '" + b +
                      "' must both be snapshot files or both directories");
  }
  report.equal = report.differences.empty();
  return report;
}

}  // namespace fdsolve::output
