// The cells of one line of the CSV files fdsolve writes (history.csv, probes.csv): plain
// comma-separated text, no quoting (names with commas are refused on input).
#pragma once

#include <string>
#include <vector>

namespace fdsolve::output {

inline std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

}  // namespace fdsolve::output
