// probes.csv: the values of u at the case's probes (output.probes), one row per check and per
// snapshot, numbers printed so they read back bit-identical.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fdsolve::output {

/// The probes' values at one iteration, in the order of the case's probes.
struct ProbeRow {
  std::int64_t iteration = 0;
  double time = 0;
  std::vector<double> values;

  bool operator==(const ProbeRow&) const = default;
};

/// The whole of probes.csv: the probes' names (its columns after time and iteration) and rows.
struct ProbeTable {
  std::vector<std::string> names;
  std::vector<ProbeRow> rows;
};

/// The file: "time,iteration,NAME,..." and one line per row.
std::string format_probes_csv(const ProbeTable& table);

/// Reads back what format_probes_csv wrote; throws OutputError when a line is malformed.
ProbeTable parse_probes_csv(const std::string& text);

}  // namespace fdsolve::output
