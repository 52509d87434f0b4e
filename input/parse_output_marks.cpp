// The output keys that say when and where a run is sampled: heat's snapshots at physical times
// (output.interval, output.times) and the probes of probes.csv (output.probes).
#include <cmath>
#include <string>

#include "case_keys.hpp"
#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {

const char* const kAxisNames[] = {"x", "y", "z"};

/// Snapshots at physical times exist only where there is time; `every` counts steps and would
/// contradict them.
void check_timed_output(const Field& f, const FieldMap& output, const Case& c) {
  if (c.problem.equation != Equation::Heat)
    f.fail(std::string("only applies to equation heat (snapshots at physical times), not ") +
           equation_name(c.problem.equation) + "; use output.every");
  if (output.has("every"))
    f.fail("cannot be given with output.every (steps between snapshots): choose one");
}

void parse_output_times(const FieldMap& output, Case& c) {
  OutputSpec& o = c.output;
  if (const auto f = output.get("interval")) {
    check_timed_output(*f, output, c);
    o.interval = read_number(*f);
    if (!(o.interval > 0)) f->fail("must be greater than 0, got " + format_number(o.interval));
  }
  if (const auto f = output.get("times")) {
    check_timed_output(*f, output, c);
    if (output.has("interval"))
      f->fail("cannot be given with output.interval: choose one");
    const auto entries = read_list(*f, "a list of increasing times in (0, time.end]");
    if (entries.empty()) f->fail("expected at least one time in (0, time.end]");
    for (const Field& entry : entries) {
      const double t = read_number(entry);
      if (!(t > 0) || t > c.time.end)
        entry.fail("must lie in (0, time.end = " + format_number(c.time.end) + "], got " +
                   format_number(t));
      if (!o.times.empty() && !(t > o.times.back()))
        entry.fail("must be greater than the time before it, " + format_number(o.times.back()) +
                   " (the times increase), got " + format_number(t));
      o.times.push_back(t);
    }
  }
}

/// A probe's name heads a column of probes.csv: it must be one CSV cell and not repeat a column.
void check_probe_name(const Field& f, const std::string& name, const OutputSpec& o) {
  if (name.empty()) f.fail("must not be empty (it names the probe's column of probes.csv)");
  for (const char ch : name)
    if (ch == ',' || ch == '"' || static_cast<unsigned char>(ch) < 0x20)
      f.fail("'" + name + "' must not contain a comma, a quote or a control character (it "
             "names a column of probes.csv)");
  if (name == "time" || name == "iteration")
    f.fail("'" + name + "' is a column of probes.csv already (time, iteration): choose another");
  for (const ProbeSpec& p : o.probes)
    if (p.name == name) f.fail("probe '" + name + "' is listed twice: each name once");
}

/// The range of axis `a` a probe may lie in: origin to the last node, or on a periodic axis to
/// one spacing beyond it (the last node's right neighbour is node 0).
void check_probe_point(const Field& f, const std::string& name, const std::array<double, 3>& at,
                       const GridSpec& g) {
  for (int a = 0; a < g.dims; ++a) {
    const double low = g.origin[a], high = g.origin[a] + g.extent[a];
    const bool inside = at[a] >= low && (g.periodic[a] ? at[a] < high : at[a] <= high);
    if (!inside)
      f.fail("probe '" + name + "' lies outside the grid: " + kAxisNames[a] + " = " +
             format_number(at[a]) + ", the grid spans " + kAxisNames[a] + " in [" +
             format_number(low) + ", " + format_number(high) + (g.periodic[a] ? ")" : "]") +
             (g.periodic[a] ? " (periodic)" : ""));
  }
}

void parse_probes(const Field& field, Case& c) {
  const int dims = c.grid.dims;
  const std::string point = dims == 2 ? "[x, y]" : "[x, y, z]";
  for (const Field& entry : read_list(field, "a list of probes {name, at}")) {
    const FieldMap map(entry, case_keys::section("output.probes"), c.locations);
    ProbeSpec probe;
    const Field name = map.require("name");
    probe.name = read_text(name);
    check_probe_name(name, probe.name, c.output);
    const Field at = map.require("at");
    const auto coordinates = read_list(at, "a point " + point);
    if (static_cast<int>(coordinates.size()) != dims)
      at.fail("probe '" + probe.name + "': expected " + std::to_string(dims) +
              " coordinates " + point + " for a " + std::to_string(dims) + "D grid, got " +
              std::to_string(coordinates.size()));
    for (int a = 0; a < dims; ++a) probe.at[a] = read_number(coordinates[a]);
    check_probe_point(at, probe.name, probe.at, c.grid);
    c.output.probes.push_back(std::move(probe));
  }
}

}  // namespace

void parse_output_marks(const FieldMap& output, Case& c) {
  parse_output_times(output, c);
  if (const auto f = output.get("probes")) parse_probes(*f, c);
}

}  // namespace fdsolve
