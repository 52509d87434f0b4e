// YAML pitfalls get an answer: an expression holding ': ' (as in 'c ? a : b') left unquoted in
// a case file or a --set value, a tab in the indentation, and Python's ** for a power each fail
// with one located line that names the fix and shows the corrected text.
#include <doctest/doctest.h>

#include "bad_input.hpp"
#include "case_reader.hpp"

using fdsolve::parse_case;
using fdsolve::testing::BadInput;
using fdsolve::testing::check_bad_inputs;

namespace {

const std::string kGrid = "grid: {points: [5, 5]}\n";
const std::string kBlock =
    "YAML reads ': ' in an unquoted value as the end of a key (invalid YAML: illegal map value)";
const std::string kFlow =
    "inside {...} YAML reads ': ' and '? ' in an unquoted value as map syntax (invalid YAML: end "
    "of map flow not found)";

}  // namespace

TEST_CASE("input pitfalls: an unquoted expression with ': ' names its key and its quoted form") {
  check_bad_inputs({
      {"block value",
       kGrid + "problem:\n  equation: poisson\n  coefficient: x < 0.5 ? 5 : 1\n",
       {},
       "case.yaml:4:16: problem.coefficient: quote the expression: " + kBlock +
           "; write coefficient: \"x < 0.5 ? 5 : 1\""},
      {"block value with a comment after it",
       kGrid + "problem:\n  equation: poisson\n  source: x > 0.5 ? 1 : 0   # a step\n",
       {},
       "case.yaml:4:11: problem.source: quote the expression: " + kBlock +
           "; write source: \"x > 0.5 ? 1 : 0\""},
      {"in the second entry of a list",
       kGrid + "problem:\n  equation: poisson\n  fixed:\n    - {where: x < 0.2, value: 1}\n"
               "    - where: x > 0.8\n      value: y < 0.5 ? 2 : 3\n",
       {},
       "case.yaml:7:14: problem.fixed[1].value: quote the expression: " + kBlock +
           "; write value: \"y < 0.5 ? 2 : 3\""},
      {"a list at its key's indentation",
       kGrid + "problem:\n  fixed:\n  - where: x > 0.8\n    value: y < 0.5 ? 2 : 3\n",
       {},
       "case.yaml:5:12: problem.fixed[0].value: quote the expression: " + kBlock +
           "; write value: \"y < 0.5 ? 2 : 3\""},
      {"inside a flow map",
       kGrid + "boundary:\n  x_min: {type: dirichlet, value: y > 0.5 ? 1 : 0}\n",
       {},
       "case.yaml:3:35: boundary.x_min.value: quote the expression: " + kFlow +
           "; write value: \"y > 0.5 ? 1 : 0\""},
      {"inside a flow map at the top level, after a comma in a call",
       kGrid + "problem: {equation: poisson, source: pow(x, 2) > 0.25 ? 1 : 0}\n",
       {},
       "case.yaml:2:38: problem.source: quote the expression: " + kFlow +
           "; write source: \"pow(x, 2) > 0.25 ? 1 : 0\""},
      {"on the line below its key: YAML read a map",
       kGrid + "problem:\n  equation: poisson\n  coefficient:\n    x < 0.5 ? 5 : 1\n",
       {},
       "case.yaml:5:5: problem.coefficient: quote the expression: YAML read 'x < 0.5 ? 5 : 1' "
       "as a map with the key 'x < 0.5 ? 5' (it ends a key at ': '); write coefficient: "
       "\"x < 0.5 ? 5 : 1\""},
      {"in a --set value",
       kGrid,
       {"problem.coefficient=x < 0.5 ? 5 : 1"},
       "--set problem.coefficient=x < 0.5 ? 5 : 1: problem.coefficient: quote the expression: "
       "YAML reads ': ' in an unquoted value as the end of a key; write --set "
       "'problem.coefficient=\"x < 0.5 ? 5 : 1\"'"},
      {"in a --set value that YAML cannot read at all",
       kGrid,
       {"problem.source=x: 1: 2"},
       "--set problem.source=x: 1: 2: problem.source: quote the expression: YAML reads ': ' in an "
       "unquoted value as the end of a key; write --set 'problem.source=\"x: 1: 2\"' (the value "
       "is not valid YAML: illegal map value)"},
  });
}

TEST_CASE("input pitfalls: quoted or unspaced expressions and maps given with --set still read") {
  const auto c = parse_case(kGrid +
                                "problem:\n  equation: poisson\n"
                                "  coefficient: \"x < 0.5 ? 5 : 1\"\n  source: x<0.5?5:1\n",
                            "case.yaml", {"initial=\"y > 0.5 ? 1 : 0\""});
  CHECK(c.problem.coefficient.expression == "x < 0.5 ? 5 : 1");
  CHECK(c.problem.source.expression == "x<0.5?5:1");
  CHECK(c.initial.expression == "y > 0.5 ? 1 : 0");
  // A misspelled key with a space is no expression: it keeps its suggestion.
  try {
    parse_case(kGrid + "boundary:\n  x min: {type: neumann}\n", "case.yaml");
    FAIL("no error");
  } catch (const fdsolve::InputError& e) {
    CHECK(std::string(e.what()).find("unknown key 'x min' (did you mean 'x_min'?)") !=
          std::string::npos);
  }
  // A --set value that is a map of plain keys is a map, as before.
  const auto n = parse_case(kGrid, "case.yaml", {"boundary.x_min=type: neumann"});
  CHECK(n.boundary[0].type == fdsolve::BoundaryType::Neumann);
}

TEST_CASE("input pitfalls: a tab in the indentation is named, with its line") {
  check_bad_inputs({
      {"a tab alone",
       "# a comment\ngrid:\n\tpoints: [5, 5]\n",
       {},
       "case.yaml:3:1: invalid YAML: a tab indents line 3; YAML indents with spaces only: replace "
       "the tab with spaces"},
      {"a tab after spaces, below good lines",
       "grid:\n  points: [5, 5]\nsolve:\n  tolerance: 1e-6\n  \tcheck_every: 10\n",
       {},
       "case.yaml:5:3: invalid YAML: a tab indents line 5; YAML indents with spaces only: replace "
       "the tab with spaces"},
  });
  // A tab between a key and its value is no indentation: it reads.
  CHECK(parse_case("grid:\n  points:\t[5, 5]\n", "case.yaml").grid.points[0] == 5);
}

TEST_CASE("input pitfalls: Python's ** for a power suggests ^") {
  check_bad_inputs({
      {"x**2",
       kGrid + "problem:\n  equation: poisson\n  source: x**2\n",
       {},
       "case.yaml:4:11: problem.source: invalid expression 'x**2': ",
       "; write powers with ^, not **: 'x^2'"},
      {"two of them, from --set",
       kGrid,
       {"initial=2*x**3 + y**2"},
       "--set initial=2*x**3 + y**2: initial: invalid expression '2*x**3 + y**2': ",
       "; write powers with ^, not **: '2*x^3 + y^2'"},
  });
}
