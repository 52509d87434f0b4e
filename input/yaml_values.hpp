// Typed reads of single fields (integers, numbers, names, enum choices, number-or-expression
// values, lists), each failing with a one-line error at the field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"
#include "yaml_fields.hpp"

namespace fdsolve {

/// An integer of at least `min`; "3.5", "abc" and booleans are errors.
std::int64_t read_integer(const Field& field, std::int64_t min);

/// A finite number.
double read_number(const Field& field);

/// Any single value taken as text.
std::string read_text(const Field& field);

/// The index of the field's value in `choices`, or an unknown-value error with a suggestion.
std::size_t read_choice(const Field& field, const std::vector<std::string>& choices);

/// A number, or an expression in x, y, z, t that must compile; one that uses t is an error
/// unless `time_allowed` (equation heat). A `{file, dataset}` map is refused here: only initial,
/// problem.source, problem.coefficient, problem.diffusivity and problem.fixed take one
/// (read_field_value in parse_sections.hpp).
Value read_value(const Field& field, bool time_allowed);

/// The entries of a list; `what` describes the expected list in the error ("a list of 2 or 3
/// integers"). Each entry's path is "path[i]".
std::vector<Field> read_list(const Field& field, const std::string& what);

}  // namespace fdsolve
