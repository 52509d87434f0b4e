// The boundary section: a condition per face, with `default` for the faces not named; then the
// checks across faces (periodic pairs, a Dirichlet face for steady problems) and the grid's
// periodic axes.
#include <cmath>

#include "case_keys.hpp"
#include "parse_sections.hpp"
#include "yaml_values.hpp"

namespace fdsolve {

namespace {
const char* type_name(BoundaryType type) {
  switch (type) {
    case BoundaryType::Neumann:
      return "neumann";
    case BoundaryType::Periodic:
      return "periodic";
    case BoundaryType::Robin:
      return "robin";
    default:
      return "dirichlet";
  }
}

// A face given in the file is complete in itself: its type defaults to dirichlet, whatever
// `default` says.
BoundaryCondition parse_face(const Field& field, Case& c) {
  const FieldMap face(field, case_keys::section("boundary.face"), c.locations);
  BoundaryCondition bc;
  if (const auto type = face.get("type")) {
    const BoundaryType types[] = {BoundaryType::Dirichlet, BoundaryType::Neumann,
                                  BoundaryType::Periodic, BoundaryType::Robin};
    bc.type = types[read_choice(*type, {"dirichlet", "neumann", "periodic", "robin"})];
  }
  const bool heat = c.problem.equation == Equation::Heat;
  const auto value = face.get("value");
  const auto gradient = face.get("gradient");
  const auto h = face.get("h");
  const auto ambient = face.get("ambient");
  if (bc.type != BoundaryType::Robin) {
    const std::string what = type_name(bc.type);
    if (h) h->fail("a " + what + " face takes no h (h and ambient belong to type robin)");
    if (ambient)
      ambient->fail("a " + what + " face takes no ambient (h and ambient belong to type robin)");
  }
  switch (bc.type) {
    case BoundaryType::Dirichlet:
      if (gradient) gradient->fail("a dirichlet face takes value, not gradient");
      if (value) bc.value = read_value(*value, heat);
      break;
    case BoundaryType::Neumann:
      if (value) {
        value->fail("a neumann face takes gradient (the outward normal derivative), not value");
      }
      if (gradient) bc.gradient = read_value(*gradient, heat);
      break;
    case BoundaryType::Periodic:
      if (value) value->fail("a periodic face takes no value");
      if (gradient) gradient->fail("a periodic face takes no gradient");
      break;
    case BoundaryType::Robin:
      if (value) value->fail("a robin face takes h and ambient (-beta du/dn = h (u - ambient)), not value");
      if (gradient)
        gradient->fail("a robin face takes h and ambient (-beta du/dn = h (u - ambient)), not gradient");
      if (h) {
        bc.h = read_number(*h);
        if (!std::isfinite(bc.h) || bc.h < 0)
          h->fail("must be a finite number >= 0 (the transfer coefficient), got " +
                  h->value.as<std::string>());
      }
      if (ambient) bc.ambient = read_value(*ambient, heat);
      if (c.problem.equation == Equation::Custom) {
        const std::string why =
            "a robin face needs the flux form of equation laplace, poisson or heat; equation "
            "custom has its own stencil weights";
        if (const auto type = face.get("type")) type->fail(why);
        field.fail(why);
      }
      break;
  }
  return bc;
}

// The key an error about `face` points at: its type (or the face) where the face was given,
// else the `default` it came from.
std::string face_key(const Case& c, int face) {
  const std::string own = std::string("boundary.") + kFaceNames[face];
  const std::string base = c.locations.count(own) ? own : "boundary.default";
  return c.locations.count(base + ".type") ? base + ".type" : base;
}

// x_min with x_max, and so on: a periodic face wraps onto its partner.
void check_periodic_pairs(Case& c) {
  for (int axis = 0; axis < c.grid.dims; ++axis) {
    const int low = 2 * axis, high = low + 1;
    const bool low_periodic = c.boundary[low].type == BoundaryType::Periodic;
    const bool high_periodic = c.boundary[high].type == BoundaryType::Periodic;
    if (low_periodic != high_periodic) {
      const int periodic = low_periodic ? low : high;
      const int partner = low_periodic ? high : low;
      // Point at the periodic face unless it came from `default` and its partner was named.
      const std::string own = std::string("boundary.") + kFaceNames[periodic];
      const int blamed = c.locations.count(own) ? periodic : partner;
      fail_at_key(c, face_key(c, blamed),
                  std::string(kFaceNames[periodic]) + " is periodic but its partner " +
                      kFaceNames[partner] + " is " + type_name(c.boundary[partner].type) +
                      " (periodic faces come in pairs: make both periodic)");
    }
    c.grid.periodic[axis] = low_periodic;
    // The default extent gives spacing 1, which on a periodic axis is `points` long.
    if (low_periodic && !c.locations.count("grid.extent")) {
      c.grid.extent[axis] = static_cast<double>(c.grid.points[axis]);
    }
  }
}

// Jacobi on -lap u = f with only Neumann and periodic faces has a solution only up to an
// added constant (and drifts): steady problems need one Dirichlet face, or a Robin face with
// h > 0, which fixes the level as well.
void check_dirichlet_present(const Case& c) {
  const Equation eq = c.problem.equation;
  if (eq != Equation::Laplace && eq != Equation::Poisson) return;
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    if (c.boundary[face].type == BoundaryType::Dirichlet) return;
    if (c.boundary[face].type == BoundaryType::Robin && c.boundary[face].h > 0) return;
  }
  // All faces named, or some from `default`: the section, or the default's type.
  fail_at_key(c, c.locations.count("boundary.default.type") ? "boundary.default.type" : "boundary",
              std::string("no face is dirichlet, so the solution of equation ") +
                  equation_name(eq) +
                  " is determined only up to a constant: make at least one face dirichlet (or "
                  "robin with h > 0)");
}
}  // namespace

void parse_boundary(const FieldMap& root, Case& c) {
  const FieldMap boundary(root.get_or_empty("boundary"), case_keys::section("boundary"),
                          c.locations);

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
  check_periodic_pairs(c);
  check_dirichlet_present(c);
}

}  // namespace fdsolve
