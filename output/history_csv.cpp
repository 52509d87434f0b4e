// Formats history.csv (see history_csv.hpp).
#include "history_csv.hpp"

#include <cstdlib>
#include <sstream>

#include "format_number.hpp"
#include "output_error.hpp"

namespace fdsolve::output {

std::string format_history_csv(const std::vector<HistoryRow>& rows) {
  std::string text = std::string(history_header) + "\n";
  for (const HistoryRow& row : rows) {
    text += std::to_string(row.iteration);
    for (const double value :
         {row.time, row.norm_l2, row.norm_linf, row.min, row.max, row.mean, row.wall_seconds}) {
      text += ',';
      text += format_double(value);
    }
    text += '\n';
  }
  return text;
}

std::vector<HistoryRow> parse_history_csv(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != history_header)
    throw OutputError("history: unexpected header '" + line + "' (expected '" +
                      history_header + "')");
  std::vector<HistoryRow> rows;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::vector<double> v;
    const char* p = line.c_str();
    char* end = nullptr;
    HistoryRow row;
    row.iteration = std::strtoll(p, &end, 10);
    while (end && *end == ',') {
      p = end + 1;
      v.push_back(std::strtod(p, &end));
    }
    if (v.size() != 7 || !end || *end != '\0')
      throw OutputError("history: malformed line '" + line + "'");
    row.time = v[0];
    row.norm_l2 = v[1];
    row.norm_linf = v[2];
    row.min = v[3];
    row.max = v[4];
    row.mean = v[5];
    row.wall_seconds = v[6];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace fdsolve::output
