// initial, problem.source, problem.coefficient, problem.diffusivity (as a field) and the where and
// value of problem.fixed regions: a number, an expression, or {file, dataset} naming an HDF5
// dataset of the grid's shape, which is checked now so that `fdsolve check` finds a bad file.
#include <filesystem>

#include "case_keys.hpp"
#include "data_file.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
// A relative path is taken from the case file's directory, so that a case runs the same from
// any working directory; one given with --set is taken from the working directory, like any
// path typed on the command line.
std::string resolve_path(const std::string& file, const Field& field, const Case& c) {
  const std::filesystem::path path(file);
  const bool from_command_line = field.location().rfind("--set ", 0) == 0;
  if (path.is_absolute() || from_command_line) return file;
  return (std::filesystem::path(c.source_path).parent_path() / path).string();
}

// The {file, dataset} form, checked against the grid; with `node_shape` false only that it
// opens (a per-cell dataset's shape is checked once the boundary is read).
Value read_file_value(const Field& field, Case& c, bool node_shape = true) {
  const FieldMap map(field, case_keys::section("field_file"), c.locations);
  const Field file = map.require("file");
  const Field dataset = map.require("dataset");
  Value v;
  v.file = read_text(file);
  if (v.file.empty()) file.fail("must not be empty");
  v.dataset = read_text(dataset);
  if (v.dataset.empty()) dataset.fail("must not be empty");
  // HDF5 reads "u" from the root group too; the leading '/' makes the stored text one form.
  if (v.dataset.front() != '/') v.dataset = "/" + v.dataset;
  v.file_path = resolve_path(v.file, file, c);

  const auto problem =
      node_shape ? check_dataset(v.file_path, v.file, v.dataset, dataset_shape_for(c.grid))
                 : check_dataset_readable(v.file_path, v.file, v.dataset);
  if (problem.part == DatasetProblem::Part::File) file.fail(problem.reason);
  if (problem) dataset.fail(problem.reason);
  return v;
}
}  // namespace

Value read_field_value(const Field& field, Case& c) {
  const bool heat = c.problem.equation == Equation::Heat;
  if (!field.value.IsMap()) return read_value(field, heat);
  return read_file_value(field, c);
}

Value read_static_field_value(const Field& field, Case& c, const std::string& what,
                              bool node_shape) {
  if (field.value.IsMap()) return read_file_value(field, c, node_shape);
  Value v = read_value(field, true);
  if (v.uses_time) {
    field.fail("expression '" + v.expression + "' uses t, but " + what +
               " (an expression in x, y, z only)");
  }
  return v;
}

}  // namespace fdsolve
