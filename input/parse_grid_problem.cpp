// The grid, problem and initial sections: sizes, the equation, its source term, its coefficient
// (beta, or heat's diffusivity k) and the held nodes of problem.fixed.
#include <cmath>
#include <cstdio>
#include <exception>

#include "case_keys.hpp"
#include "data_file.hpp"
#include "expression.hpp"
#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
// extent and origin: one number per axis of grid.points; extents must be positive.
std::vector<double> read_axis_numbers(const Field& field, int dims, bool positive) {
  const std::string what = "a list of " + std::to_string(dims) + " numbers";
  const auto entries = read_list(field, what);
  if (static_cast<int>(entries.size()) != dims) {
    field.fail("expected " + std::to_string(dims) + " entries, one per axis of grid.points, got " +
               std::to_string(entries.size()));
  }
  std::vector<double> values;
  for (const auto& entry : entries) {
    values.push_back(read_number(entry));
    if (positive && !(values.back() > 0)) {
      entry.fail("must be greater than 0, got " + format_number(values.back()));
    }
  }
  return values;
}
// An input-level bound, whatever the machine: 2^40 nodes of two double fields are 16 TiB, more
// than any device or host holds, and it keeps the index and byte arithmetic (nodes x padding x
// fields x bytes) far from 64-bit overflow, so an absurd grid is bad input, not a crash.
void check_node_count(const Field& points, const GridSpec& g) {
  constexpr std::int64_t kMaxNodes = std::int64_t{1} << 40;
  std::int64_t nodes = 1;
  double product = 1;
  std::string factors;
  for (int axis = 0; axis < g.dims; ++axis) {
    nodes = g.points[axis] > kMaxNodes / nodes ? kMaxNodes + 1 : nodes * g.points[axis];
    product *= static_cast<double>(g.points[axis]);
    factors += (axis > 0 ? " x " : "") + std::to_string(g.points[axis]);
  }
  if (nodes <= kMaxNodes) return;
  char total[32];
  if (product < 1e18) {  // exact below 2^63
    std::int64_t exact = 1;
    for (int axis = 0; axis < g.dims; ++axis) exact *= g.points[axis];
    std::snprintf(total, sizeof total, "%lld", static_cast<long long>(exact));
  } else {
    std::snprintf(total, sizeof total, "%.3g", product);
  }
  points.fail(factors + " = " + total + " nodes, more than the limit of 2^40 = " +
              std::to_string(kMaxNodes) + " nodes per case");
}
}  // namespace

void parse_grid(const FieldMap& root, Case& c) {
  const FieldMap grid(root.get_or_empty("grid"), case_keys::section("grid"), c.locations);
  const Field points = grid.require("points");
  const auto entries = read_list(points, "a list of 2 or 3 integers");
  if (entries.size() != 2 && entries.size() != 3) points.fail("expected 2 or 3 entries");
  GridSpec& g = c.grid;
  g.dims = static_cast<int>(entries.size());
  for (int axis = 0; axis < g.dims; ++axis) {
    g.points[axis] = read_integer(entries[axis], 3);
    g.extent[axis] = static_cast<double>(g.points[axis] - 1);
  }
  check_node_count(points, g);
  if (const auto extent = grid.get("extent")) {
    const auto values = read_axis_numbers(*extent, g.dims, true);
    for (int axis = 0; axis < g.dims; ++axis) g.extent[axis] = values[axis];
  }
  if (const auto origin = grid.get("origin")) {
    const auto values = read_axis_numbers(*origin, g.dims, false);
    for (int axis = 0; axis < g.dims; ++axis) g.origin[axis] = values[axis];
  }
}

namespace {
// problem.coefficient, problem.diffusivity and problem.capacity: a number, an expression in x, y, z or a dataset.
// A number, or an expression without variables (taken as its number: it does not vary), must be
// finite and positive here; the values of a varying one are checked at the nodes when the run
// sets up.
Value read_coefficient(const Field& field, Case& c, const std::string& what) {
  Value v = read_static_field_value(field, c, what, c.problem.sampling == Sampling::Nodes);
  double constant = v.constant;
  if (v.is_expression()) {
    try {
      const Expression e(v.expression);
      if (!e.variables().empty()) return v;
      constant = e(0, 0, 0);
    } catch (const std::exception&) {
      return v;  // read_value compiled it already
    }
    if (!(std::isfinite(constant) && constant > 0)) {
      field.fail("must be positive, got the expression '" + v.expression + "' = " +
                 (std::isfinite(constant) ? format_number(constant) : std::string("non-finite")));
    }
    Value number;
    number.constant = constant;
    return number;
  }
  if (v.is_constant() && !(constant > 0)) {
    field.fail("must be positive (greater than 0), got " + format_number(constant));
  }
  return v;
}

// problem.fixed: a list of {where, value} regions; where is a mask of x, y, z only (a node is
// held where it is non-zero), value the held value, which may use t for equation heat (the
// steps write it at each new time level) and not for the steady equations, which have no time.
void parse_fixed(const Field& field, Case& c) {
  if (c.problem.equation == Equation::Custom) {
    field.fail(
        "equation custom takes no held nodes (problem.fixed applies to laplace, poisson and "
        "heat)");
  }
  const auto entries = read_list(field, "a list of regions {where, value}");
  for (const Field& entry : entries) {
    const FieldMap region(entry, case_keys::section("problem.fixed"), c.locations);
    FixedRegion r;
    r.where = read_static_field_value(region.require("where"), c,
                                      "the held nodes are time-independent");
    const Field value = region.require("value");
    r.value = c.problem.equation == Equation::Heat
                  ? read_field_value(value, c)
                  : read_static_field_value(
                        value, c,
                        std::string("equation ") + equation_name(c.problem.equation) +
                            " is steady: a held value may use t only for equation heat");
    c.problem.fixed.push_back(std::move(r));
  }
}
}  // namespace

void check_cell_dataset(const Case& c, const std::string& key, const Value& v) {
  if (c.problem.sampling != Sampling::Cells || !v.is_file()) return;
  const auto problem =
      check_dataset(v.file_path, v.file, v.dataset, cell_dataset_shape_for(c.grid), kCellsNeed);
  if (problem)
    fail_at_key(c, key + (problem.part == DatasetProblem::Part::File ? ".file" : ".dataset"),
                problem.reason);
}

void check_cell_datasets(const Case& c) {
  check_cell_dataset(c,
                     c.problem.equation == Equation::Heat ? "problem.diffusivity"
                                                          : "problem.coefficient",
                     c.problem.coefficient);
  if (c.problem.equation == Equation::Heat)
    check_cell_dataset(c, "problem.capacity", c.problem.capacity);
}

void parse_problem(const FieldMap& root, Case& c) {
  const FieldMap problem(root.get_or_empty("problem"), case_keys::section("problem"), c.locations);
  if (const auto equation = problem.get("equation")) {
    const Equation equations[] = {Equation::Laplace, Equation::Poisson, Equation::Heat,
                                  Equation::Custom};
    c.problem.equation =
        equations[read_choice(*equation, {"laplace", "poisson", "heat", "custom"})];
  }
  const Equation eq = c.problem.equation;
  // Before the coefficient: it decides the shape a coefficient dataset must have.
  if (const auto sampling = problem.get("sampling")) {
    if (eq == Equation::Custom)
      sampling->fail(
          "equation custom has no coefficient to sample (its stencil weights define the update)");
    c.problem.sampling = read_choice(*sampling, {"nodes", "cells"}) == 0 ? Sampling::Nodes
                                                                         : Sampling::Cells;
  }
  if (const auto diffusivity = problem.get("diffusivity")) {
    if (eq != Equation::Heat) {
      diffusivity->fail(std::string("equation ") + equation_name(eq) +
                        " has no diffusivity (it applies to equation heat)");
    }
    // A number is the constant operator's k; an expression or a dataset is the coefficient
    // field of the flux form, with diffusivity left at 1.
    const Value k = read_coefficient(*diffusivity, c, "the diffusivity is time-independent");
    if (k.is_constant()) {
      c.problem.diffusivity = k.constant;
    } else {
      c.problem.coefficient = k;
    }
  }
  if (const auto capacity = problem.get("capacity")) {
    if (eq != Equation::Heat) {
      capacity->fail(std::string("equation ") + equation_name(eq) +
                     " has no capacity (it applies to equation heat: c of c u_t = div(k grad u) "
                     "+ q)");
    }
    c.problem.capacity = read_coefficient(*capacity, c, "the capacity is time-independent");
  }
  if (const auto coefficient = problem.get("coefficient")) {
    if (eq == Equation::Heat) {
      coefficient->fail(
          "does not apply to equation heat: use problem.diffusivity (k of u_t = div(k grad u) "
          "+ q)");
    }
    if (eq == Equation::Custom) {
      coefficient->fail(
          "equation custom takes no coefficient (its stencil weights define the update)");
    }
    c.problem.coefficient =
        read_coefficient(*coefficient, c, "the coefficient is time-independent");
  }
  if (const auto fixed = problem.get("fixed")) parse_fixed(*fixed, c);
  if (const auto source = problem.get("source")) {
    if (eq == Equation::Poisson || eq == Equation::Heat) {
      c.problem.source = read_field_value(*source, c);
    } else {
      // laplace and custom accept only an explicit 0, which is what they have anyway.
      const bool zero =
          source->value.IsScalar() && parse_number_text(source->value.Scalar()) == 0.0;
      if (!zero && eq == Equation::Laplace) {
        source->fail("equation laplace has no source term (use equation poisson)");
      }
      if (!zero) {
        source->fail("equation custom has no source term (its stencil weights define the update)");
      }
    }
  }
  if (const auto initial = root.get("initial")) c.initial = read_field_value(*initial, c);
}
}  // namespace fdsolve
