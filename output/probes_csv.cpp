// Formats and parses probes.csv (see probes_csv.hpp).
#include "probes_csv.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "csv_cells.hpp"
#include "format_number.hpp"
#include "output_error.hpp"

namespace fdsolve::output {
namespace {

}  // namespace

std::string format_probes_csv(const ProbeTable& table) {
  std::string text = "time,iteration";
  for (const std::string& name : table.names) text += ',' + name;
  text += '\n';
  for (const ProbeRow& row : table.rows) {
    text += format_double(row.time) + ',' + std::to_string(row.iteration);
    for (const double value : row.values) text += ',' + format_double(value);
    text += '\n';
  }
  return text;
}

ProbeTable parse_probes_csv(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  std::vector<std::string> header = split_cells(line);
  if (header.size() < 2 || header[0] != "time" || header[1] != "iteration")
    throw OutputError("probes: unexpected header '" + line + "' (expected 'time,iteration,...')");
  ProbeTable table;
  table.names.assign(header.begin() + 2, header.end());
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = split_cells(line);
    bool ok = cells.size() == header.size();
    ProbeRow row;
    // strtod reads back what %.17g (or "-nan", "inf") printed, bit for bit.
    const auto number = [&](const std::string& cell, double& value) {
      char* end = nullptr;
      value = std::strtod(cell.c_str(), &end);
      return !cell.empty() && end == cell.c_str() + cell.size();
    };
    ok = ok && number(cells[0], row.time);
    if (ok) {
      char* end = nullptr;
      errno = 0;
      row.iteration = std::strtoll(cells[1].c_str(), &end, 10);
      ok = errno == 0 && !cells[1].empty() && end == cells[1].c_str() + cells[1].size();
    }
    for (std::size_t c = 2; ok && c < cells.size(); ++c) {
      row.values.push_back(0);
      ok = number(cells[c], row.values.back());
    }
    if (!ok) throw OutputError("probes: malformed line '" + line + "'");
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace fdsolve::output
