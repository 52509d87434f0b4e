// Typed field reads: the single place where YAML scalar text becomes numbers and names.
#include "yaml_values.hpp"

#include <stdexcept>

#include "expression.hpp"
#include "number_text.hpp"
#include "suggestions.hpp"
#include "yaml_pitfalls.hpp"

namespace fdsolve {

namespace {
// How a non-scalar or badly typed value is described in "expected X, got Y".
std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  if (is_boolean_text(node.Scalar())) return "the boolean '" + node.Scalar() + "'";
  return "'" + node.Scalar() + "'";
}

const std::string& scalar_or_fail(const Field& field, const char* expected) {
  if (!field.value.IsScalar())
    field.fail(std::string("expected ") + expected + ", got " + describe(field.value));
  return field.value.Scalar();
}
}  // namespace

std::int64_t read_integer(const Field& field, std::int64_t min) {
  const std::string& text = scalar_or_fail(field, "an integer");
  const auto value = parse_integer_text(text);
  if (!value) {
    const bool digits_only = text.find_first_not_of("+-0123456789") == std::string::npos;
    field.fail(digits_only ? "integer out of range, got '" + text + "'"
                           : "expected an integer, got " + describe(field.value));
  }
  if (*value < min) {
    field.fail("must be at least " + std::to_string(min) + ", got " + std::to_string(*value));
  }
  return *value;
}

double read_number(const Field& field) {
  const std::string& text = scalar_or_fail(field, "a number");
  const auto value = parse_number_text(text);
  if (!value) field.fail("expected a number, got " + describe(field.value));
  return *value;
}

std::string read_text(const Field& field) { return scalar_or_fail(field, "a single value"); }

std::size_t read_choice(const Field& field, const std::vector<std::string>& choices) {
  const std::string& text = scalar_or_fail(field, ("one of " + join_choices(choices)).c_str());
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == text) return i;
  }
  field.fail(unknown_value_reason(text, choices));
}

Value read_value(const Field& field, bool time_allowed) {
  if (field.value.IsMap() && (field.value["file"] || field.value["dataset"])) {
    field.fail(
        "only initial, problem.source, problem.coefficient, problem.diffusivity, "
        "problem.capacity and problem.fixed can be read from a file; give a number or an expression");
  }
  const std::string& text = scalar_or_fail(field, "a number or an expression");
  Value value;
  if (const auto number = parse_number_text(text)) {
    value.constant = *number;
    return value;
  }
  if (is_boolean_text(text) && field.value.Tag() != "!") {
    field.fail("expected a number or an expression, got " + describe(field.value));
  }
  try {
    value.uses_time = Expression(text).variables().count("t") > 0;
  } catch (const std::exception& e) {
    field.fail("invalid expression '" + text + "': " + e.what() + pitfalls::expression_hint(text));
  }
  if (value.uses_time && !time_allowed) {
    field.fail("expression '" + text + "' uses t, which is defined only for equation heat");
  }
  value.expression = text;
  return value;
}

std::vector<Field> read_list(const Field& field, const std::string& what) {
  if (!field.value.IsSequence()) field.fail("expected " + what + ", got " + describe(field.value));
  std::vector<Field> entries;
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    entries.push_back(Field{field.sources, YAML::Node(), field.value[i],
                            field.path + "[" + std::to_string(i) + "]"});
  }
  return entries;
}

}  // namespace fdsolve
