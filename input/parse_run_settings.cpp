// The solve, time, output, checkpoint and tuning sections: how long to iterate or step, and
// what to write.
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

// Heat steps to time.end: the stopping keys of a Jacobi solve (and the stagnation warning) do
// not apply, while norm, check_every (steps between checks and log lines), divergence_factor
// and diagnostics do.
void parse_solve(const FieldMap& root, Case& c) {
  const FieldMap solve(root.get_or_empty("solve"),
                       {"max_iterations", "tolerance", "absolute_tolerance", "norm", "check_every",
                        "divergence_factor", "diagnostics", "stagnation_checks"},
                       c.locations);
  if (c.problem.equation == Equation::Heat) {
    for (const char* key :
         {"max_iterations", "tolerance", "absolute_tolerance", "stagnation_checks"}) {
      if (const auto f = solve.get(key)) {
        f->fail("does not apply to equation heat, which runs to time.end");
      }
    }
  }
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
  if (const auto f = solve.get("diagnostics"))
    s.diagnostics = read_choice(*f, {"true", "false"}) == 0;
  if (const auto f = solve.get("stagnation_checks")) s.stagnation_checks = read_integer(*f, 0);
}

// Heat only: the end time and the step, `auto` (safety times the stability limit, which the
// solver derives from the stencil) or a number.
void parse_time(const FieldMap& root, Case& c) {
  const auto section = root.get("time");
  if (section && c.problem.equation != Equation::Heat) {
    section->fail(std::string("only applies to equation heat, not ") +
                  equation_name(c.problem.equation));
  }
  const FieldMap time(root.get_or_empty("time"), {"end", "dt", "safety"}, c.locations);
  TimeSpec& t = c.time;
  if (const auto f = time.get("end")) {
    t.end = read_number(*f);
    if (!(t.end > 0)) f->fail("must be greater than 0, got " + format_number(t.end));
  }
  if (const auto f = time.get("dt")) {
    const std::string text = read_text(*f);
    if (text != "auto") {
      const auto dt = parse_number_text(text);
      if (!dt) f->fail("expected auto or a number, got '" + text + "'");
      if (!(*dt > 0)) f->fail("must be greater than 0, got " + format_number(*dt));
      t.dt_auto = false;
      t.dt = *dt;
    }
  }
  if (const auto f = time.get("safety")) {
    t.safety = read_number(*f);
    if (!(t.safety > 0 && t.safety <= 1)) {
      f->fail("must be greater than 0 and at most 1, got " + format_number(t.safety));
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
  parse_time(root, c);
  parse_output(root, c);
  const FieldMap checkpoint(root.get_or_empty("checkpoint"), {"every"}, c.locations);
  if (const auto f = checkpoint.get("every")) c.checkpoint.every = read_integer(*f, 0);
  const FieldMap tuning(root.get_or_empty("tuning"), {"kernel"}, c.locations);
  if (const auto f = tuning.get("kernel")) c.tuning.kernel = read_text(*f);
}

}  // namespace fdsolve
