// The per-section readers behind parse_case. Each fills its part of the Case from the checked
// top-level map; later sections rely on earlier ones (grid, problem, boundary, stencil, run).
#pragma once

#include <string>

#include "case.hpp"
#include "case_reader.hpp"
#include "yaml_fields.hpp"

namespace fdsolve {

void parse_grid(const FieldMap& root, Case& c);
/// problem and initial.
void parse_problem(const FieldMap& root, Case& c);
/// The faces; also sets grid.periodic and the default extent of periodic axes.
void parse_boundary(const FieldMap& root, Case& c);
/// After the boundary: 19 and 27 points check the spacing, which periodic axes change.
void parse_stencil(const FieldMap& root, Case& c);
/// time, solve, output, checkpoint, tuning and parallel.
void parse_run_settings(const FieldMap& root, Case& c);
/// The solve section (parse_solve.cpp); after time, whose scheme decides what applies to heat.
void parse_solve(const FieldMap& root, Case& c);
/// output.interval, output.times and output.probes (parse_output_marks.cpp); after time and the
/// boundary (periodic axes extend the grid a probe may lie in).
void parse_output_marks(const FieldMap& output, Case& c);

/// initial and problem.source: a number, an expression (t only for equation heat), or
/// {file, dataset}, resolved against the case file's directory and checked against the grid.
Value read_field_value(const Field& field, Case& c);

/// The same for values that do not change in time (problem.coefficient, problem.diffusivity as a
/// field, problem.fixed's where, and its value in the steady equations): an expression that uses t is an error whose reason ends with `what`
/// ("the coefficient is time-independent"), whatever the equation.
/// With `node_shape` false a dataset is only opened, its shape left to check_cell_datasets.
Value read_static_field_value(const Field& field, Case& c, const std::string& what,
                              bool node_shape = true);

/// After the boundary (periodic axes change the cells per axis): a coefficient or diffusivity
/// read from a file under problem.sampling: cells must hold one value per cell; an input error
/// names the key and both shapes.
void check_cell_datasets(const Case& c);
/// The same check for the value `v` of `key` (another field sampled like the coefficient, read
/// with read_static_field_value's node_shape false under cells); nothing under nodes.
void check_cell_dataset(const Case& c, const std::string& key, const Value& v);

/// An error about a combination of keys, placed at `path` as recorded in c.locations (the file
/// itself when `path` was defaulted).
[[noreturn]] inline void fail_at_key(const Case& c, const std::string& path,
                                     const std::string& reason) {
  throw InputError(c.where(path) + path + ": " + reason);
}

}  // namespace fdsolve
