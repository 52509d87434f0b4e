// The solve, output, checkpoint and tuning sections: how long to iterate and what to write.
#include <algorithm>

#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
double read_at_least_zero(const Field& field) {
  const double value = read_number(field);
  if (value < 0) field.fail("must be at least 0, got " + format_number(value));
  return value;
}

void parse_solve(const FieldMap& root, Case& c) {
  const FieldMap solve(root.get_or_empty("solve"),
                       {"max_iterations", "tolerance", "absolute_tolerance", "norm", "check_every",
                        "divergence_factor"},
                       c.locations);
  SolveSpec& s = c.solve;
  if (const auto f = solve.get("max_iterations")) s.max_iterations = read_integer(*f, 1);
  if (const auto f = solve.get("tolerance")) s.tolerance = read_at_least_zero(*f);
  if (const auto f = solve.get("absolute_tolerance")) s.absolute_tolerance = read_at_least_zero(*f);
  if (const auto f = solve.get("norm")) {
    s.norm = read_choice(*f, {"l2", "linf"}) == 0 ? NormKind::L2 : NormKind::Linf;
  }
  if (const auto f = solve.get("check_every")) s.check_every = read_integer(*f, 1);
  if (const auto f = solve.get("divergence_factor")) {
    s.divergence_factor = read_number(*f);
    if (!(s.divergence_factor > 1)) {
      f->fail("must be greater than 1, got " + format_number(s.divergence_factor));
    }
  }
}

void parse_output(const FieldMap& root, Case& c) {
  const FieldMap output(root.get_or_empty("output"), {"directory", "every", "fields"}, c.locations);
  OutputSpec& o = c.output;
  o.directory = "out/" + c.name;
  if (const auto f = output.get("directory")) {
    o.directory = read_text(*f);
    if (o.directory.empty()) f->fail("must not be empty");
  }
  if (const auto f = output.get("every")) o.every = read_integer(*f, 0);
  if (const auto f = output.get("fields")) {
    const std::vector<std::string> known{"u", "update", "source"};
    const auto entries = read_list(*f, "a list of fields (u, update, source)");
    if (entries.empty()) f->fail("expected at least one field (u, update, source)");
    o.fields.clear();
    for (const auto& entry : entries) {
      const std::string name = known[read_choice(entry, known)];
      if (std::find(o.fields.begin(), o.fields.end(), name) != o.fields.end()) {
        entry.fail("field '" + name + "' is listed twice");
      }
      o.fields.push_back(name);
    }
  }
}
}  // namespace

void parse_run_settings(const FieldMap& root, Case& c) {
  parse_solve(root, c);
  parse_output(root, c);
  const FieldMap checkpoint(root.get_or_empty("checkpoint"), {"every"}, c.locations);
  if (const auto f = checkpoint.get("every")) {
    if (read_integer(*f, 0) > 0) f->fail("checkpoints are not supported in this version");
  }
  const FieldMap tuning(root.get_or_empty("tuning"), {"kernel"}, c.locations);
  if (const auto f = tuning.get("kernel")) c.tuning.kernel = read_text(*f);
}

}  // namespace fdsolve
