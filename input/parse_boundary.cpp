// The boundary section: a condition per face, with `default` for the faces not named.
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
BoundaryCondition parse_face(const Field& field, Case& c) {
  const FieldMap face(field, {"type", "value", "gradient"}, c.locations);
  BoundaryCondition bc;
  if (const auto type = face.get("type")) {
    const std::vector<std::string> types{"dirichlet", "neumann", "periodic"};
    const std::size_t index = read_choice(*type, types);
    if (index != 0) {
      type->fail("boundary type '" + types[index] + "' is not supported in this version");
    }
  }
  if (const auto gradient = face.get("gradient")) {
    gradient->fail("only applies to boundary type neumann, which is not supported in this version");
  }
  if (const auto value = face.get("value")) bc.value = read_value(*value);
  return bc;
}
}  // namespace

void parse_boundary(const FieldMap& root, Case& c) {
  std::vector<std::string> keys{"default"};
  keys.insert(keys.end(), kFaceNames.begin(), kFaceNames.end());
  const FieldMap boundary(root.get_or_empty("boundary"), keys, c.locations);

  BoundaryCondition fallback;
  if (const auto given = boundary.get("default")) fallback = parse_face(*given, c);
  for (int face = 0; face < 6; ++face) {
    const bool z_face = face == ZMin || face == ZMax;
    const auto given = boundary.get(kFaceNames[face]);
    if (c.grid.dims == 2 && z_face) {
      if (given) given->fail("a 2D grid has no z faces");
      // Left at the plain default rather than `default`, so that to_yaml, which lists only the
      // faces a grid has, reads back to an equal Case.
      c.boundary[face] = BoundaryCondition{};
      continue;
    }
    c.boundary[face] = given ? parse_face(*given, c) : fallback;
  }
}

}  // namespace fdsolve
