// Formats and parses history.csv (see history_csv.hpp).
#include "history_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "csv_cells.hpp"
#include "format_number.hpp"
#include "output_error.hpp"

namespace fdsolve::output {
namespace {

constexpr std::size_t kColumns = 17;
constexpr std::size_t kColumnsV3 = 16;
constexpr std::size_t kCycles = 15;
constexpr std::size_t kColumnsV2 = 15;
constexpr std::size_t kFactor = 14;
constexpr std::size_t kColumnsV1 = 8;
constexpr std::size_t kFirstDiagnostic = 7, kLastDiagnostic = 13;  // nonfinite .. linf_k

/// Parses a whole cell as a number: strtod's reading of what %.17g (or "-nan") printed.
bool parse_double(const std::string& cell, double& value) {
  if (cell.empty()) return false;
  char* end = nullptr;
  value = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size();
}

bool parse_integer(const std::string& cell, std::int64_t& value) {
  if (cell.empty()) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtoll(cell.c_str(), &end, 10);
  return errno == 0 && end == cell.c_str() + cell.size();
}

constexpr const char* kBalancePrefix = "integral";

/// The balance layout of `rows`: the first row that has one (every row of a run has the same).
const HistoryRow* balance_layout(const std::vector<HistoryRow>& rows) {
  for (const HistoryRow& row : rows)
    if (!row.balance.empty()) return &row;
  return nullptr;
}

/// The balance columns named by `names` (the header's cells between cycles and wall_seconds):
/// the number of faces, or -1 when they are not integral, flux_<face>..., flux_fixed_<i>....
int balance_faces_of(const std::vector<std::string>& names) {
  if (names.empty() || names[0] != kBalancePrefix) return -1;
  int faces = 0;
  while (faces < 6 && 1 + static_cast<std::size_t>(faces) < names.size() &&
         names[1 + faces].rfind("flux_fixed_", 0) != 0)
    ++faces;
  return balance_columns(faces, names.size()) == names ? faces : -1;
}

}  // namespace

std::vector<std::string> balance_columns(int faces, std::size_t count) {
  static constexpr const char* kFaces[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  std::vector<std::string> names;
  if (count == 0) return names;
  names.emplace_back(kBalancePrefix);
  for (int f = 0; f < faces && names.size() < count; ++f)
    names.push_back(std::string("flux_") + kFaces[f]);
  for (std::size_t r = 0; names.size() < count; ++r)
    names.push_back("flux_fixed_" + std::to_string(r));
  return names;
}

std::string format_history_csv(const std::vector<HistoryRow>& rows) {
  const HistoryRow* layout = balance_layout(rows);
  const std::size_t balance = layout ? layout->balance.size() : 0;
  std::string header = history_header;
  if (layout) {
    std::string names;
    for (const std::string& name : balance_columns(layout->balance_faces, balance))
      names += name + ',';
    header.insert(header.size() - std::string("wall_seconds").size(), names);
  }
  std::string text = header + "\n";
  for (const HistoryRow& row : rows) {
    text += std::to_string(row.iteration);
    for (const double value : {row.time, row.norm_l2, row.norm_linf, row.min, row.max, row.mean}) {
      text += ',';
      text += format_double(value);
    }
    if (row.diagnosed) {
      text += ',' + std::to_string(row.nonfinite);
      for (const double value : {row.p50, row.p90, row.p99}) text += ',' + format_double(value);
      for (const std::int64_t n : row.linf_at) text += ',' + std::to_string(n);
    } else {
      text += std::string(kLastDiagnostic - kFirstDiagnostic + 1, ',');
    }
    text += ',' + (std::isnan(row.factor) ? std::string() : format_double(row.factor));
    text += ',' + (row.cycles < 0 ? std::string() : std::to_string(row.cycles));
    // A row without the balance (an older checkpoint's) leaves its cells empty.
    for (std::size_t b = 0; b < balance; ++b)
      text += ',' + (b < row.balance.size() ? format_double(row.balance[b]) : std::string());
    text += ',' + format_double(row.wall_seconds) + '\n';
  }
  return text;
}

std::vector<HistoryRow> parse_history_csv(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const bool v1 = line == history_header_v1;
  const bool v2 = line == history_header_v2;
  const bool v3 = line == history_header_v3;
  // The current header, with the balance columns between cycles and wall_seconds.
  const std::string head = history_header;
  const std::string before_wall = head.substr(0, head.size() - std::string("wall_seconds").size());
  int faces = 0;
  std::size_t balance = 0;
  if (!v1 && !v2 && !v3 && line != history_header) {
    const bool framed = line.size() > head.size() && line.rfind(before_wall, 0) == 0 &&
                        line.compare(line.size() - 13, 13, ",wall_seconds") == 0;
    std::vector<std::string> names;
    if (framed)
      names = split_cells(line.substr(before_wall.size(), line.size() - 13 - before_wall.size()));
    faces = framed ? balance_faces_of(names) : -1;
    if (faces < 0)
      throw OutputError("history: unexpected header '" + line + "' (expected '" + history_header +
                        "', optionally with the balance columns before wall_seconds)");
    balance = names.size();
  }
  std::vector<HistoryRow> rows;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const auto malformed = [&] { return OutputError("history: malformed line '" + line + "'"); };
    const std::vector<std::string> cells = split_cells(line);
    if (cells.size() !=
        (v1 ? kColumnsV1 : v2 ? kColumnsV2 : v3 ? kColumnsV3 : kColumns + balance))
      throw malformed();
    HistoryRow row;
    double* const numbers[] = {&row.time, &row.norm_l2, &row.norm_linf,
                               &row.min,  &row.max,     &row.mean};
    bool ok = parse_integer(cells[0], row.iteration);
    for (std::size_t c = 1; c < kFirstDiagnostic; ++c)
      ok = ok && parse_double(cells[c], *numbers[c - 1]);
    ok = ok && parse_double(cells.back(), row.wall_seconds);
    if (!v1 && !v2 && !cells[kFactor].empty()) ok = ok && parse_double(cells[kFactor], row.factor);
    if (!v1 && !v2 && !v3 && !cells[kCycles].empty())
      ok = ok && parse_integer(cells[kCycles], row.cycles);
    std::size_t balance_cells = 0;
    for (std::size_t b = 0; b < balance; ++b) balance_cells += !cells[kCycles + 1 + b].empty();
    if (balance_cells == balance && balance > 0) {
      row.balance.resize(balance);
      row.balance_faces = faces;
      for (std::size_t b = 0; b < balance; ++b)
        ok = ok && parse_double(cells[kCycles + 1 + b], row.balance[b]);
    } else if (balance_cells != 0) {
      throw malformed();
    }
    if (!ok) throw malformed();
    if (!v1) {
      std::size_t empty = 0;
      for (std::size_t c = kFirstDiagnostic; c <= kLastDiagnostic; ++c) empty += cells[c].empty();
      row.diagnosed = empty == 0;
      if (row.diagnosed) {
        ok = parse_integer(cells[7], row.nonfinite) && parse_double(cells[8], row.p50) &&
             parse_double(cells[9], row.p90) && parse_double(cells[10], row.p99) &&
             parse_integer(cells[11], row.linf_at[0]) && parse_integer(cells[12], row.linf_at[1]) &&
             parse_integer(cells[13], row.linf_at[2]);
        if (!ok) throw malformed();
      } else if (empty != kLastDiagnostic - kFirstDiagnostic + 1) {
        throw malformed();
      }
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace fdsolve::output
