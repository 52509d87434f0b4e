// The stencil section: a point count checked against the grid's dimension and spacing, or a
// custom weight map, which goes with (and only with) equation custom.
#include <algorithm>
#include <cmath>

#include "case_keys.hpp"
#include "number_text.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
// The 19- and 27-point weights (docs/numerics.md) assume one spacing h on all axes (read after the
// boundary, which makes axes periodic and so changes their spacing).
void check_equal_spacing(const Field& field, const GridSpec& g, std::int64_t points) {
  const double hx = g.spacing(0), hy = g.spacing(1), hz = g.spacing(2);
  const double largest = std::max({hx, hy, hz});
  const double spread = largest - std::min({hx, hy, hz});
  if (spread > 1e-12 * largest) {
    const bool periodic = g.periodic[0] || g.periodic[1] || g.periodic[2];
    field.fail("the " + std::to_string(points) +
               "-point stencil needs equal spacing on all axes, got " + format_number(hx) + ", " +
               format_number(hy) + ", " + format_number(hz) +
               (periodic ? " (grid.extent / grid.points on periodic axes, / (grid.points - 1) "
                           "on the others)"
                         : " (grid.extent / (grid.points - 1))"));
  }
}

void parse_point_count(const Field& field, Case& c) {
  const std::int64_t points = read_integer(field, 1);
  if (c.grid.dims == 2 && points != 5) {
    field.fail("expected 5 for a 2D grid, got " + std::to_string(points));
  }
  if (c.grid.dims == 3 && points != 7 && points != 19 && points != 27) {
    field.fail("expected 7, 19 or 27 for a 3D grid, got " + std::to_string(points));
  }
  if (points == 19 || points == 27) check_equal_spacing(field, c.grid, points);
  if ((points == 19 || points == 27) && !c.problem.coefficient.is_constant()) {
    const char* key =
        c.problem.equation == Equation::Heat ? "problem.diffusivity" : "problem.coefficient";
    field.fail("the " + std::to_string(points) + "-point stencil has no form for a varying " + key +
               ": variable coefficients use the 5-point (2D) / 7-point (3D) flux form; " +
               "use stencil: 7");
  }
  if (points == 19 || points == 27)
    for (int face = 0; face < 2 * c.grid.dims; ++face)
      if (c.boundary[face].type == BoundaryType::Robin)
        field.fail("the " + std::to_string(points) + "-point stencil has no form for a robin face (" +
                   std::string("boundary.") + kFaceNames[face] +
                   "): robin faces use the 5-point (2D) / 7-point (3D) flux form; use stencil: 7");
  if ((points == 19 || points == 27) && !c.problem.capacity.is_constant()) {
    field.fail("the " + std::to_string(points) +
               "-point stencil has no form for a varying problem.capacity: a capacity that "
               "varies uses the 7-point flux form; use stencil: 7");
  }
  c.stencil.points = static_cast<int>(points);
}

void parse_custom(const Field& field, Case& c) {
  if (c.problem.equation != Equation::Custom) {
    field.fail("a stencil with weights needs problem.equation custom");
  }
  const FieldMap stencil(field, case_keys::section("stencil"), c.locations);
  const Field points_field = stencil.require("points");
  const std::int64_t points = read_integer(points_field, 1);
  if (points != 5 && points != 27) {
    points_field.fail("a custom stencil has 5 points (2D) or 27 points (3D), got " +
                      std::to_string(points));
  }
  if ((points == 5) != (c.grid.dims == 2)) {
    points_field.fail("a custom " + std::to_string(points) + "-point stencil needs a " +
                      (points == 5 ? "2D" : "3D") + " grid");
  }
  const FieldMap weights(
      stencil.require("weights"),
      case_keys::section(points == 5 ? "stencil.weights.5" : "stencil.weights.27"), c.locations);
  StencilSpec& s = c.stencil;
  s.points = static_cast<int>(points);
  s.custom = true;
  s.center = read_number(weights.require("center"));
  if (points == 5) {
    s.face[0] = read_number(weights.require("x"));
    s.face[1] = read_number(weights.require("y"));
  } else {
    s.face.fill(read_number(weights.require("face")));
    s.edge = read_number(weights.require("edge"));
    s.corner = read_number(weights.require("corner"));
  }
}
}  // namespace

void parse_stencil(const FieldMap& root, Case& c) {
  c.stencil = StencilSpec{};
  c.stencil.points = c.grid.dims == 2 ? 5 : 7;
  const auto field = root.get("stencil");
  if (field && field->value.IsMap()) {
    parse_custom(*field, c);
    return;
  }
  if (c.problem.equation == Equation::Custom) {
    fail_at_key(c, "problem.equation",
                "equation custom needs a stencil with weights, e.g. stencil: {points: 5, "
                "weights: {center: 0, x: 0.25, y: 0.25}}");
  }
  if (field) parse_point_count(*field, c);
}

}  // namespace fdsolve
