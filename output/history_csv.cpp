// Formats and parses history.csv (see history_csv.hpp).
#include "history_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

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

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

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

}  // namespace

std::string format_history_csv(const std::vector<HistoryRow>& rows) {
  std::string text = std::string(history_header) + "\n";
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
  if (!v1 && !v2 && !v3 && line != history_header)
    throw OutputError("history: unexpected header '" + line + "' (expected '" + history_header +
                      "')");
  std::vector<HistoryRow> rows;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const auto malformed = [&] { return OutputError("history: malformed line '" + line + "'"); };
    const std::vector<std::string> cells = split_cells(line);
    if (cells.size() != (v1 ? kColumnsV1 : v2 ? kColumnsV2 : v3 ? kColumnsV3 : kColumns))
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
