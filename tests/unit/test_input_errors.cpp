// Bad case files and overrides: each must fail with one line "file:line:col: key.path: reason"
// pointing at the offending node. Lines and columns below were counted by hand from the text.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "case_reader.hpp"

namespace {

struct BadInput {
  const char* what;
  std::string yaml;
  std::vector<std::string> sets;
  std::string expected;  // the whole message, or its beginning when `reason_part` is given
  std::string reason_part = {};
};

// Catches the InputError and returns its message; fails the test if nothing was thrown.
std::string error_of(const BadInput& row) {
  try {
    fdsolve::parse_case(row.yaml, "case.yaml", row.sets);
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string grid2 = "grid: {points: [5, 5]}\n";
const std::string grid3 = "grid: {points: [5, 5, 5]}\n";
const std::string heat = "problem: {equation: heat}\n";

const std::vector<BadInput> kBadInputs = {
    {"unknown top-level key",
     "nmae: x\n" + grid2,
     {},
     "case.yaml:1:1: nmae: unknown key 'nmae' (did you mean 'name'?)"},
    {"unknown key in a section",
     grid2 + "solve:\n  tolerence: 1e-8\n",
     {},
     "case.yaml:3:3: solve.tolerence: unknown key 'tolerence' (did you mean 'tolerance'?)"},
    {"unknown key in a face",
     grid2 + "boundary:\n  x_min: {typ: dirichlet}\n",
     {},
     "case.yaml:3:11: boundary.x_min.typ: unknown key 'typ' (did you mean 'type'?)"},
    {"unknown weight, nothing close",
     grid2 + "problem: {equation: custom}\n"
             "stencil: {points: 5, weights: {center: 0, x: 0.25, z: 0.25}}\n",
     {},
     "case.yaml:3:52: stencil.weights.z: unknown key 'z' (expected one of center, x, y)"},
    {"unknown key with nothing close lists the keys",
     grid2 + "output: {colour: red}\n",
     {},
     "case.yaml:2:10: output.colour: unknown key 'colour' (expected one of directory, every, "
     "fields)"},
    {"misspelled precision",
     "precision: dubble\n" + grid2,
     {},
     "case.yaml:1:12: precision: unknown value 'dubble' (expected float, double); did you mean "
     "'double'?"},
    {"misspelled boundary type (SPEC example)",
     grid2 + "boundary:\n  x_max:\n    type: dirichlett\n",
     {},
     "case.yaml:4:11: boundary.x_max.type: unknown value 'dirichlett' (expected dirichlet, "
     "neumann, periodic); did you mean 'dirichlet'?"},
    {"unknown norm",
     grid2 + "solve: {norm: l3}\n",
     {},
     "case.yaml:2:15: solve.norm: unknown value 'l3' (expected l2, linf)"},
    {"misspelled backend",
     "backend: cdua\n" + grid2,
     {},
     "case.yaml:1:10: backend: ",
     "did you mean 'cuda'?"},
    {"text for an integer",
     grid2 + "solve: {max_iterations: abc}\n",
     {},
     "case.yaml:2:25: solve.max_iterations: expected an integer, got 'abc'"},
    {"integer too large",
     grid2 + "solve: {max_iterations: 99999999999999999999}\n",
     {},
     "case.yaml:2:25: solve.max_iterations: integer out of range, got '99999999999999999999'"},
    {"fraction for an integer",
     grid2 + "solve: {check_every: 3.5}\n",
     {},
     "case.yaml:2:22: solve.check_every: expected an integer, got '3.5'"},
    {"boolean for a number",
     grid2 + "solve: {tolerance: true}\n",
     {},
     "case.yaml:2:20: solve.tolerance: expected a number, got the boolean 'true'"},
    {"points not a list",
     "grid: {points: 5}\n",
     {},
     "case.yaml:1:16: grid.points: expected a list of 2 or 3 integers, got '5'"},
    {"points of one entry",
     "grid: {points: [5]}\n",
     {},
     "case.yaml:1:16: grid.points: expected 2 or 3 entries"},
    {"too few points on an axis",
     "grid: {points: [5, 2]}\n",
     {},
     "case.yaml:1:20: grid.points[1]: must be at least 3, got 2"},
    {"zero extent",
     "grid: {points: [5, 5], extent: [1, 0]}\n",
     {},
     "case.yaml:1:36: grid.extent[1]: must be greater than 0, got 0"},
    {"extent of the wrong length",
     "grid: {points: [5, 5], extent: [1, 1, 1]}\n",
     {},
     "case.yaml:1:32: grid.extent: expected 2 entries, one per axis of grid.points, got 3"},
    {"negative tolerance",
     grid2 + "solve: {tolerance: -1}\n",
     {},
     "case.yaml:2:20: solve.tolerance: must be at least 0, got -1"},
    {"divergence factor of 1",
     grid2 + "solve: {divergence_factor: 1}\n",
     {},
     "case.yaml:2:28: solve.divergence_factor: must be greater than 1, got 1"},
    {"check_every 0",
     grid2 + "solve: {check_every: 0}\n",
     {},
     "case.yaml:2:22: solve.check_every: must be at least 1, got 0"},
    {"no output fields",
     grid2 + "output: {fields: []}\n",
     {},
     "case.yaml:2:18: output.fields: expected at least one field (u, update, source)"},
    {"duplicate output field",
     grid2 + "output: {fields: [u, u]}\n",
     {},
     "case.yaml:2:22: output.fields[1]: field 'u' is listed twice"},
    {"unknown output field",
     grid2 + "output: {fields: [u, preasure]}\n",
     {},
     "case.yaml:2:22: output.fields[1]: unknown value 'preasure' (expected u, update, source)"},
    {"7-point stencil on a 2D grid",
     grid2 + "stencil: 7\n",
     {},
     "case.yaml:2:10: stencil: expected 5 for a 2D grid, got 7"},
    {"5-point stencil on a 3D grid",
     grid3 + "stencil: 5\n",
     {},
     "case.yaml:2:10: stencil: expected 7, 19 or 27 for a 3D grid, got 5"},
    {"27-point stencil with unequal spacing",
     "grid: {points: [5, 5, 5], extent: [1, 1, 2]}\nstencil: 27\n",
     {},
     "case.yaml:2:10: stencil: the 27-point stencil needs equal spacing on all axes, got 0.25, "
     "0.25, 0.5 (grid.extent / (grid.points - 1))"},
    {"19-point stencil with unequal spacing",
     "grid: {points: [5, 5, 9], extent: [4, 4, 9]}\nstencil: 19\n",
     {},
     "case.yaml:2:10: stencil: the 19-point stencil needs equal spacing on all axes, got 1, 1, "
     "1.125 (grid.extent / (grid.points - 1))"},
    {"custom stencil without equation custom",
     grid2 + "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n",
     {},
     "case.yaml:2:10: stencil: a stencil with weights needs problem.equation custom"},
    {"equation custom without a custom stencil",
     grid2 + "problem: {equation: custom}\n",
     {},
     "case.yaml:2:21: problem.equation: equation custom needs a stencil with weights",
     "e.g. stencil: {points: 5"},
    {"custom 5-point stencil in 3D",
     grid3 + "problem: {equation: custom}\n"
             "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n",
     {},
     "case.yaml:3:19: stencil.points: a custom 5-point stencil needs a 2D grid"},
    {"missing weight",
     grid2 + "problem: {equation: custom}\nstencil: {points: 5, weights: {x: 1, y: 1}}\n",
     {},
     "case.yaml:3:31: stencil.weights.center: required key is missing"},
    {"z face in 2D",
     grid2 + "boundary:\n  z_min: {value: 1}\n",
     {},
     "case.yaml:3:10: boundary.z_min: a 2D grid has no z faces"},
    {"diffusivity for laplace",
     grid2 + "problem: {diffusivity: 2}\n",
     {},
     "case.yaml:2:24: problem.diffusivity: equation laplace has no diffusivity (it applies to "
     "equation heat)"},
    {"zero diffusivity",
     grid2 + "problem: {equation: heat, diffusivity: 0}\n",
     {},
     "case.yaml:2:40: problem.diffusivity: must be greater than 0, got 0"},
    {"time section for laplace",
     grid2 + "time: {end: 1}\n",
     {},
     "case.yaml:2:7: time: only applies to equation heat, not laplace"},
    {"time section for poisson, from --set",
     grid2 + "problem: {equation: poisson}\n",
     {"time.end=2"},
     "--set time.end=2: time: only applies to equation heat, not poisson"},
    {"zero end time",
     grid2 + heat + "time: {end: 0}\n",
     {},
     "case.yaml:3:13: time.end: must be greater than 0, got 0"},
    {"dt neither auto nor a number",
     grid2 + heat + "time: {dt: fast}\n",
     {},
     "case.yaml:3:12: time.dt: expected auto or a number, got 'fast'"},
    {"negative dt",
     grid2 + heat + "time: {dt: -1}\n",
     {},
     "case.yaml:3:12: time.dt: must be greater than 0, got -1"},
    {"dt as a list",
     grid2 + heat + "time: {dt: [1]}\n",
     {},
     "case.yaml:3:12: time.dt: expected a single value, got a list"},
    {"safety above 1",
     grid2 + heat + "time: {safety: 1.5}\n",
     {},
     "case.yaml:3:16: time.safety: must be greater than 0 and at most 1, got 1.5"},
    {"safety 0",
     grid2 + heat + "time: {safety: 0}\n",
     {},
     "case.yaml:3:16: time.safety: must be greater than 0 and at most 1, got 0"},
    {"max_iterations for heat",
     grid2 + heat + "solve: {max_iterations: 10}\n",
     {},
     "case.yaml:3:25: solve.max_iterations: does not apply to equation heat, which runs to "
     "time.end"},
    {"tolerance for heat",
     grid2 + heat + "solve: {tolerance: 1e-9}\n",
     {},
     "case.yaml:3:20: solve.tolerance: does not apply to equation heat, which runs to time.end"},
    {"absolute_tolerance for heat, from --set",
     grid2 + heat,
     {"solve.absolute_tolerance=1e-9"},
     "--set solve.absolute_tolerance=1e-9: solve.absolute_tolerance: does not apply to equation "
     "heat, which runs to time.end"},
    {"gradient on a dirichlet face",
     grid2 + "boundary:\n  x_min: {value: 1, gradient: 2}\n",
     {},
     "case.yaml:3:31: boundary.x_min.gradient: a dirichlet face takes value, not gradient"},
    {"value on a neumann face",
     grid2 + "boundary:\n  x_min: {type: neumann, value: 1}\n",
     {},
     "case.yaml:3:33: boundary.x_min.value: a neumann face takes gradient (the outward normal "
     "derivative), not value"},
    {"value on a periodic face",
     grid2 + "boundary:\n  x_min: {type: periodic, value: 1}\n",
     {},
     "case.yaml:3:34: boundary.x_min.value: a periodic face takes no value"},
    {"gradient on a periodic default",
     grid2 + "boundary:\n  default: {type: periodic, gradient: 0}\n",
     {},
     "case.yaml:3:39: boundary.default.gradient: a periodic face takes no gradient"},
    {"bad gradient expression",
     grid2 + "boundary:\n  x_min: {type: neumann, gradient: \"2*\"}\n",
     {},
     "case.yaml:3:36: boundary.x_min.gradient: invalid expression '2*': ",
     "nexpected end of"},
    {"periodic face without its partner",
     grid2 + "boundary:\n  x_min: {type: periodic}\n",
     {},
     "case.yaml:3:17: boundary.x_min.type: x_min is periodic but its partner x_max is dirichlet "
     "(periodic faces come in pairs: make both periodic)"},
    {"periodic high face without its partner (3D)",
     grid3 + "boundary:\n  z_max: {type: periodic}\n  z_min: {type: neumann, gradient: 1}\n",
     {},
     "case.yaml:3:17: boundary.z_max.type: z_max is periodic but its partner z_min is neumann "
     "(periodic faces come in pairs: make both periodic)"},
    {"periodic default with a partner named otherwise",
     grid2 + "boundary:\n  default: {type: periodic}\n  y_max: {type: neumann}\n",
     {},
     "case.yaml:4:17: boundary.y_max.type: y_min is periodic but its partner y_max is neumann "
     "(periodic faces come in pairs: make both periodic)"},
    {"periodic default with a partner named without a type",
     grid2 + "boundary:\n  default: {type: periodic}\n  x_min: {value: 1}\n",
     {},
     "case.yaml:4:10: boundary.x_min: x_max is periodic but its partner x_min is dirichlet "
     "(periodic faces come in pairs: make both periodic)"},
    {"laplace without a dirichlet face",
     grid2 + "boundary:\n  default: {type: neumann}\n",
     {},
     "case.yaml:3:19: boundary.default.type: no face is dirichlet, so the solution of equation "
     "laplace is determined only up to a constant: make at least one face dirichlet"},
    {"poisson with every face named, none dirichlet",
     grid2 + "problem: {equation: poisson}\nboundary:\n  x_min: {type: periodic}\n"
             "  x_max: {type: periodic}\n  y_min: {type: neumann}\n  y_max: {type: neumann}\n",
     {},
     "case.yaml:4:3: boundary: no face is dirichlet, so the solution of equation poisson is "
     "determined only up to a constant: make at least one face dirichlet"},
    {"27 points, unequal spacing from a periodic axis",
     "grid: {points: [5, 5, 5], extent: [4, 4, 4]}\n"
     "boundary: {x_min: {type: periodic}, x_max: {type: periodic}}\nstencil: 27\n",
     {},
     "case.yaml:3:10: stencil: the 27-point stencil needs equal spacing on all axes, got 0.8, 1, "
     "1 (grid.extent / grid.points on periodic axes, / (grid.points - 1) on the others)"},
    {"t in an initial value for laplace",
     grid2 + "initial: \"sin(t)\"\n",
     {},
     "case.yaml:2:10: initial: expression 'sin(t)' uses t, which is defined only for equation "
     "heat"},
    {"t in a poisson source",
     grid2 + "problem: {equation: poisson, source: \"x*t\"}\n",
     {},
     "case.yaml:2:38: problem.source: expression 'x*t' uses t, which is defined only for "
     "equation heat"},
    {"t in a boundary value",
     grid2 + "boundary: {x_min: {value: \"t\"}}\n",
     {},
     "case.yaml:2:27: boundary.x_min.value: expression 't' uses t, which is defined only for "
     "equation heat"},
    {"t in a custom case's gradient",
     grid2 + "problem: {equation: custom}\n"
             "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"
             "boundary: {x_min: {type: neumann, gradient: \"1+t\"}}\n",
     {},
     "case.yaml:4:45: boundary.x_min.gradient: expression '1+t' uses t, which is defined only "
     "for equation heat"},
    {"source with laplace",
     grid2 + "problem: {source: 2}\n",
     {},
     "case.yaml:2:19: problem.source: equation laplace has no source term (use equation poisson)"},
    {"source from a file with laplace",
     grid2 + "problem: {source: {file: f.h5, dataset: /f}}\n",
     {},
     "case.yaml:2:19: problem.source: equation laplace has no source term (use equation poisson)"},
    {"source with custom",
     grid2 + "problem: {equation: custom, source: x}\n"
             "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n",
     {},
     "case.yaml:2:37: problem.source: equation custom has no source term (its stencil weights "
     "define the update)"},
    {"boundary value from a file",
     grid2 + "boundary: {x_min: {value: {file: b.h5, dataset: /b}}}\n",
     {},
     "case.yaml:2:27: boundary.x_min.value: only initial and problem.source can be read from a "
     "file; give a number or an expression"},
    {"boundary gradient from a file",
     grid2 + heat + "boundary: {x_min: {type: neumann, gradient: {file: b.h5, dataset: /b}}}\n",
     {},
     "case.yaml:3:45: boundary.x_min.gradient: only initial and problem.source can be read from "
     "a file; give a number or an expression"},
    {"other keys beside file and dataset",
     grid2 + "initial: {file: u.h5, dataset: /u, scale: 2}\n",
     {},
     "case.yaml:2:36: initial.scale: unknown key 'scale' (expected one of file, dataset)"},
    {"file without dataset",
     grid2 + "initial: {file: u.h5}\n",
     {},
     "case.yaml:2:10: initial.dataset: required key is missing"},
    {"heat source: dataset without file",
     grid2 + "problem: {equation: heat, source: {dataset: /q}}\n",
     {},
     "case.yaml:2:35: problem.source.file: required key is missing"},
    {"empty dataset name",
     grid2 + "initial: {file: u.h5, dataset: \"\"}\n",
     {},
     "case.yaml:2:32: initial.dataset: must not be empty"},
    {"empty file name",
     grid2 + "initial: {file: \"\", dataset: /u}\n",
     {},
     "case.yaml:2:17: initial.file: must not be empty"},
    {"missing data file",
     grid2 + "initial: {file: no/such/dir/u0.h5, dataset: /u}\n",
     {},
     "case.yaml:2:17: initial.file: cannot open no/such/dir/u0.h5: no such file"},
    {"directory as a data file",
     grid2 + "initial: {file: /, dataset: /u}\n",
     {},
     "case.yaml:2:17: initial.file: / is a directory, not an HDF5 file"},
    {"negative checkpoint interval",
     grid2 + "checkpoint: {every: -1}\n",
     {},
     "case.yaml:2:21: checkpoint.every: must be at least 0, got -1"},
    {"bad expression syntax",
     grid2 + "boundary: {x_min: {value: \"sin(pi*y\"}}\n",
     {},
     "case.yaml:2:27: boundary.x_min.value: invalid expression 'sin(pi*y': ",
     "arenthes"},
    {"unknown variable in expression",
     grid2 + "initial: \"q*x\"\n",
     {},
     "case.yaml:2:10: initial: invalid expression 'q*x': ",
     "\"q\""},
    {"name with a space",
     "name: \"my case\"\n" + grid2,
     {},
     "case.yaml:1:7: name: must be non-empty without '/' or whitespace, got 'my case'"},
    {"duplicate key",
     grid2 + "precision: float\nprecision: double\n",
     {},
     "case.yaml:3:1: precision: duplicate key 'precision'"},
    {"missing grid.points",
     "grid: {extent: [1, 1]}\n",
     {},
     "case.yaml:1:7: grid.points: required key is missing"},
    {"missing grid", "name: a\n", {}, "case.yaml:1:1: grid.points: required key is missing"},
    {"section that is not a map",
     grid2 + "tuning: 5\n",
     {},
     "case.yaml:2:9: tuning: expected a map of keys, got a single value"},
    {"empty file",
     "# nothing but a comment\n",
     {},
     "case.yaml:1:1: the case file is empty; it needs at least grid.points"},
    {"top level is a list", "- 1\n- 2\n", {}, "case.yaml:1:1: ", "expected a map of keys"},
    {"YAML syntax error", "grid: {points: [5, 5]\nname: x\n", {}, "case.yaml:", "invalid YAML: "},
    {"override without '='", grid2, {"grid.points"}, "--set grid.points: expected KEY.PATH=VALUE"},
    {"override with an empty key",
     grid2,
     {"=5"},
     "--set =5: expected KEY.PATH=VALUE, the key is empty"},
    {"override with an empty key part",
     grid2,
     {"solve..tolerance=1"},
     "--set solve..tolerance=1: solve..tolerance: empty part in the key path"},
    {"override with a bad value",
     grid2,
     {"grid.points=[3]"},
     "--set grid.points=[3]: grid.points: expected 2 or 3 entries"},
    {"override with an unknown key",
     grid2,
     {"solve.tolerence=1"},
     "--set solve.tolerence=1: solve.tolerence: unknown key 'tolerence' (did you mean "
     "'tolerance'?)"},
    {"override through a value",
     grid2,
     {"stencil=5", "stencil.points=5"},
     "--set stencil.points=5: stencil: cannot set 'points' inside a value that is not a map"},
};

}  // namespace

TEST_CASE("input: bad inputs fail with one located line") {
  REQUIRE(kBadInputs.size() >= 25);
  for (const auto& row : kBadInputs) {
    const std::string what = row.what;
    CAPTURE(what);
    const std::string message = error_of(row);
    CHECK(message.find('\n') == std::string::npos);
    const bool whole = row.reason_part.empty() && row.expected.back() != ' ';
    if (whole) {
      CHECK(message == row.expected);
    } else {
      CHECK(message.rfind(row.expected, 0) == 0);
      CHECK(message.find(row.reason_part) != std::string::npos);
    }
  }
}

TEST_CASE("input: a missing case file is an input error naming the path") {
  CHECK_THROWS_WITH_AS(fdsolve::read_case_file("/nonexistent/dir/case.yaml"),
                       doctest::Contains("/nonexistent/dir/case.yaml: cannot open"),
                       fdsolve::InputError);
}
