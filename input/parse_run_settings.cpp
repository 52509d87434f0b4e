// The time, output, checkpoint, tuning and parallel sections: how long to step, what to write,
// and how the grid is split over MPI ranks.
#include <algorithm>
#include <limits>

#include "case_keys.hpp"
#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
// Heat only: the scheme, the end time and the step. The explicit scheme takes dt `auto` (safety
// times the stability limit, which the solver derives from the stencil) or a number; the
// implicit schemes need a number (any size) and have no stability limit to scale.
void parse_time(const FieldMap& root, Case& c) {
  const auto section = root.get("time");
  if (section && c.problem.equation != Equation::Heat) {
    section->fail(std::string("only applies to equation heat, not ") +
                  equation_name(c.problem.equation));
  }
  const FieldMap time(root.get_or_empty("time"), case_keys::section("time"), c.locations);
  TimeSpec& t = c.time;
  if (const auto f = time.get("scheme")) {
    const TimeScheme schemes[] = {TimeScheme::Explicit, TimeScheme::Implicit,
                                  TimeScheme::CrankNicolson};
    t.scheme = schemes[read_choice(*f, {"explicit", "implicit", "crank-nicolson"})];
  }
  const bool implicit = t.scheme != TimeScheme::Explicit;
  const std::string scheme = std::string("time.scheme ") + time_scheme_name(t.scheme);
  if (const auto f = time.get("end")) {
    t.end = read_number(*f);
    if (!(t.end > 0)) f->fail("must be greater than 0, got " + format_number(t.end));
  }
  if (const auto f = time.get("dt")) {
    const std::string text = read_text(*f);
    if (text == "auto" && implicit) {
      f->fail("expected a number for " + scheme +
              ", got auto (dt: auto applies to the explicit scheme only)");
    }
    if (text != "auto") {
      const auto dt = parse_number_text(text);
      if (!dt) f->fail("expected auto or a number, got '" + text + "'");
      if (!(*dt > 0)) f->fail("must be greater than 0, got " + format_number(*dt));
      t.dt_auto = false;
      t.dt = *dt;
    }
  } else if (implicit) {
    // Point at the time section, as a missing required key does.
    throw InputError(time.self().location() + ": time.dt: required for " + scheme +
                     ": a number greater than 0 (dt: auto applies to the explicit scheme only)");
  }
  if (const auto f = time.get("safety")) {
    if (implicit) {
      f->fail("does not apply to " + scheme +
              " (it scales the explicit stability limit for dt: auto)");
    }
    t.safety = read_number(*f);
    if (!(t.safety > 0 && t.safety <= 1)) {
      f->fail("must be greater than 0 and at most 1, got " + format_number(t.safety));
    }
  }
  if (const auto f = time.get("startup_steps")) {
    if (t.scheme != TimeScheme::CrankNicolson)
      f->fail("applies to time.scheme crank-nicolson only (its backward-Euler start), not " +
              std::string(time_scheme_name(t.scheme)));
    t.startup_steps = read_integer(*f, 0);
  }
  if (const auto f = time.get("extrapolate")) {
    if (!implicit)
      f->fail("applies to the implicit schemes only (their first guess), not " + scheme);
    t.extrapolate = read_choice(*f, {"true", "false"}) == 0;
  }
}

// output.compression: none, gzip (level 4, a middle ground between speed and size), or
// {gzip: LEVEL} with LEVEL 1-9.
void parse_compression(const Field& f, OutputSpec& o, Case& c) {
  if (!f.value.IsMap()) {
    o.gzip_level = read_choice(f, {"none", "gzip"}) == 1 ? 4 : 0;
    return;
  }
  const FieldMap compression(f, {"gzip"}, c.locations);
  const Field level = compression.require("gzip");
  o.gzip_level = static_cast<int>(read_integer(level, 1));
  if (o.gzip_level > 9) level.fail("must be a gzip level from 1 to 9, got " + std::to_string(o.gzip_level));
}

void parse_output(const FieldMap& root, Case& c) {
  const FieldMap output(root.get_or_empty("output"), case_keys::section("output"), c.locations);
  OutputSpec& o = c.output;
  o.directory = "out/" + c.name;
  if (const auto f = output.get("directory")) {
    o.directory = read_text(*f);
    if (o.directory.empty()) f->fail("must not be empty");
  }
  if (const auto f = output.get("every")) o.every = read_integer(*f, 0);
  if (const auto f = output.get("fields")) {
    const std::vector<std::string> known{"u",     "update", "source",  "coefficient",
                                         "fixed", "flux",   "capacity"};
    const auto entries = read_list(
        *f, "a list of fields (u, update, source, coefficient, fixed, flux, capacity)");
    if (entries.empty()) {
      f->fail("expected at least one field (u, update, source, coefficient, fixed, flux, "
              "capacity)");
    }
    o.fields.clear();
    for (const auto& entry : entries) {
      const std::string name = known[read_choice(entry, known)];
      if (std::find(o.fields.begin(), o.fields.end(), name) != o.fields.end()) {
        entry.fail("field '" + name + "' is listed twice");
      }
      if (name == "flux" && c.problem.equation == Equation::Custom) {
        entry.fail(
            "equation custom has no coefficient, so no flux -beta grad u (its stencil weights "
            "define the update)");
      }
      if (name == "capacity" && c.problem.equation != Equation::Heat) {
        entry.fail(std::string("field 'capacity' applies to equation heat (c of c u_t = "
                               "div(k grad u) + q), not ") +
                   equation_name(c.problem.equation));
      }
      o.fields.push_back(name);
    }
  }
  if (const auto f = output.get("precision")) o.float_precision = read_choice(*f, {"same", "float"}) == 1;
  if (const auto f = output.get("compression")) parse_compression(*f, o, c);
  if (const auto f = output.get("queue")) {
    const std::string text = read_text(*f);
    if (text != "auto") {
      if (!parse_integer_text(text)) f->fail("expected auto or a number of snapshots, got '" + text + "'");
      o.queue = read_integer(*f, 0);
    }
  }
  parse_output_marks(output, c);
}

// parallel.ranks: auto, or the number of ranks along each axis of the grid; parallel.gather_below:
// multigrid's agglomeration threshold in nodes per rank; parallel.coarse_levels: how the gathered
// levels run (auto, gather, redundant); parallel.overlap.
void parse_parallel(const FieldMap& root, Case& c) {
  const FieldMap parallel(root.get_or_empty("parallel"), case_keys::section("parallel"),
                          c.locations);
  if (const auto g = parallel.get("gather_below")) c.parallel.gather_below = read_integer(*g, 0);
  if (const auto f = parallel.get("coarse_levels"))
    c.parallel.coarse_levels =
        static_cast<CoarseLevels>(read_choice(*f, {"auto", "gather", "redundant"}));
  if (const auto f = parallel.get("overlap"))
    c.parallel.overlap = read_choice(*f, {"true", "false"}) == 0;
  const auto f = parallel.get("ranks");
  if (!f || (f->value.IsScalar() && f->value.Scalar() == "auto")) return;
  const GridSpec& g = c.grid;
  const auto entries = read_list(
      *f, "auto or a list of " + std::to_string(g.dims) + " integers, one per axis of grid.points");
  if (static_cast<int>(entries.size()) != g.dims) {
    f->fail("expected " + std::to_string(g.dims) + " entries, one per axis of grid.points, got " +
            std::to_string(entries.size()));
  }
  for (int axis = 0; axis < g.dims; ++axis) {
    const std::int64_t ranks = read_integer(entries[axis], 1);
    const std::int64_t most =
        std::min<std::int64_t>(g.points[axis], std::numeric_limits<int>::max());
    if (ranks > most) {
      entries[axis].fail(
          "must be at most grid.points[" + std::to_string(axis) + "] = " + std::to_string(most) +
          " (each rank needs at least one node of the axis), got " + std::to_string(ranks));
    }
    c.parallel.ranks[axis] = static_cast<int>(ranks);
  }
}
}  // namespace

// time before solve: the time scheme decides which solve keys apply to heat.
void parse_run_settings(const FieldMap& root, Case& c) {
  parse_time(root, c);
  parse_solve(root, c);
  parse_output(root, c);
  const FieldMap checkpoint(root.get_or_empty("checkpoint"), case_keys::section("checkpoint"),
                            c.locations);
  if (const auto f = checkpoint.get("every")) c.checkpoint.every = read_integer(*f, 0);
  const FieldMap tuning(root.get_or_empty("tuning"), case_keys::section("tuning"), c.locations);
  if (const auto f = tuning.get("kernel")) c.tuning.kernel = read_text(*f);
  if (const auto f = tuning.get("blocked_kernel")) c.tuning.blocked_kernel = read_text(*f);
  parse_parallel(root, c);
}

}  // namespace fdsolve
