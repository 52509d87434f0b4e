// --set overrides: applied before validation, later ones win, errors and locations name them.
#include <doctest/doctest.h>

#include "case_reader.hpp"

using fdsolve::parse_case;

TEST_CASE("input: overrides replace and add keys") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\nsolve: {tolerance: 1e-3}\n", "ov",
      {"grid.points=[512,256]", "solve.tolerance=1e-8", "boundary.x_min.value=\"sin(pi*y)\"",
       "problem.equation=poisson", "problem.source=x + y"});
  CHECK(c.grid.points[0] == 512);
  CHECK(c.grid.points[1] == 256);
  CHECK(c.grid.extent[0] == 511.0);
  CHECK(c.solve.tolerance == 1e-8);
  CHECK(c.boundary[fdsolve::XMin].value.expression == "sin(pi*y)");
  CHECK(c.problem.source.expression == "x + y");
  CHECK(c.locations.at("grid.points") == "--set grid.points=[512,256]");
  CHECK(c.locations.at("boundary.x_min.value") == "--set boundary.x_min.value=\"sin(pi*y)\"");
  // The created intermediate map is located by the override that made it.
  CHECK(c.locations.at("boundary.x_min") == "--set boundary.x_min.value=\"sin(pi*y)\"");
  // Keys the override did not touch keep their file position.
  CHECK(c.locations.at("grid") == "ov:1:7");
}

TEST_CASE("input: later overrides win") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\n", "ov",
      {"solve.norm=linf", "solve.norm=l2", "grid={points: [7, 7]}", "grid.extent=[1, 2]"});
  CHECK(c.solve.norm == fdsolve::NormKind::L2);
  CHECK(c.grid.points[0] == 7);
  CHECK(c.grid.extent[1] == 2.0);
  CHECK(c.locations.at("solve.norm") == "--set solve.norm=l2");
  CHECK(c.locations.at("grid.points") == "--set grid={points: [7, 7]}");
  CHECK(c.locations.at("grid.extent") == "--set grid.extent=[1, 2]");
}

TEST_CASE("input: an override can supply what the file lacks") {
  const fdsolve::Case c = parse_case("", "empty.yaml", {"grid.points=[3,3,3]"});
  CHECK(c.grid.dims == 3);
  CHECK(c.name == "empty");
}

TEST_CASE("input: errors in overridden values name the override") {
  CHECK_THROWS_WITH_AS(parse_case("grid: {points: [5, 5]}\n", "f.yaml", {"grid.points=[3]"}),
                       "--set grid.points=[3]: grid.points: expected 2 or 3 entries",
                       fdsolve::InputError);
  CHECK_THROWS_WITH_AS(parse_case("grid: {points: [5, 5]}\n", "f.yaml", {"grid.points=[3, 2]"}),
                       "--set grid.points=[3, 2]: grid.points[1]: must be at least 3, got 2",
                       fdsolve::InputError);
  // A missing required key inside a map that an override replaced points at the override.
  CHECK_THROWS_WITH_AS(parse_case("grid: {points: [5, 5]}\n", "f.yaml", {"grid={extent: [1, 1]}"}),
                       "--set grid={extent: [1, 1]}: grid.points: required key is missing",
                       fdsolve::InputError);
  // A consistency error found after the fact uses the recorded location of the key.
  CHECK_THROWS_WITH_AS(parse_case("grid: {points: [5, 5]}\n", "f.yaml", {"stencil=7"}),
                       "--set stencil=7: stencil: expected 5 for a 2D grid, got 7",
                       fdsolve::InputError);
  CHECK_THROWS_WITH_AS(
      parse_case("grid: {points: [5, 5]}\n", "f.yaml", {"solve.norm=[l2"}),
      doctest::Contains("--set solve.norm=[l2: solve.norm: the value is not valid YAML"),
      fdsolve::InputError);
}
