// Heterogeneous media in the case file: problem.coefficient (beta), problem.diffusivity as a
// field (heat's k), problem.fixed regions, solve.krylov and the coefficient and fixed output
// fields. Valid forms fill the right Case fields, bad ones fail with one located line, and
// to_yaml writes them so that they read back equal. Columns were counted from the text.
#include <doctest/doctest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bad_input.hpp"
#include "case_reader.hpp"
#include "data_file.hpp"
#include "test_output_support.hpp"

namespace fs = std::filesystem;
using fdsolve::parse_case;
using fdsolve::testing::BadInput;
using fdsolve::testing::check_bad_inputs;

namespace {

const std::string kGrid2 = "grid: {points: [5, 5]}\n";

const std::vector<BadInput> kBadMediaInputs = {
    {"coefficient for heat",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat, coefficient: 2}\n"),
     {},
     "case.yaml:2:40: problem.coefficient: does not apply to equation heat: use "
     "problem.diffusivity (k of u_t = div(k grad u) + q)"},
    {"coefficient for custom",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: custom, coefficient: 2}\n"
                 "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"),
     {},
     "case.yaml:2:42: problem.coefficient: equation custom takes no coefficient (its stencil "
     "weights define the update)"},
    {"zero coefficient",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: poisson, coefficient: 0}\n"),
     {},
     "case.yaml:2:43: problem.coefficient: must be positive (greater than 0), got 0"},
    {"negative coefficient from --set",
     std::string("grid: {points: [5, 5]}\n"),
     {"problem.coefficient=-1.5"},
     "--set problem.coefficient=-1.5: problem.coefficient: must be positive (greater than 0), got "
     "-1.5"},
    {"constant expression that is not positive",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {coefficient: \"2 - 3\"}\n"),
     {},
     "case.yaml:2:24: problem.coefficient: must be positive, got the expression '2 - 3' = -1"},
    {"coefficient using t",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {coefficient: \"1 + t\"}\n"),
     {},
     "case.yaml:2:24: problem.coefficient: expression '1 + t' uses t, but the coefficient is "
     "time-independent (an expression in x, y, z only)"},
    {"coefficient using t for poisson",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: poisson, source: 1, coefficient: \"exp(-t)\"}\n"),
     {},
     "case.yaml:2:54: problem.coefficient: expression 'exp(-t)' uses t, but the coefficient is "
     "time-independent (an expression in x, y, z only)"},
    {"bad coefficient expression",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {coefficient: \"1 + q\"}\n"),
     {},
     "case.yaml:2:24: problem.coefficient: invalid expression '1 + q': ",
     "\"q\""},
    {"diffusivity using t",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat, diffusivity: \"1 + x*t\"}\n"),
     {},
     "case.yaml:2:40: problem.diffusivity: expression '1 + x*t' uses t, but the diffusivity is "
     "time-independent (an expression in x, y, z only)"},
    {"negative diffusivity",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat, diffusivity: -2}\n"),
     {},
     "case.yaml:2:40: problem.diffusivity: must be positive (greater than 0), got -2"},
    {"diffusivity expression for poisson",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: poisson, diffusivity: \"1 + x\"}\n"),
     {},
     "case.yaml:2:43: problem.diffusivity: equation poisson has no diffusivity (it applies to "
     "equation heat)"},
    {"diffusivity as a list",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat, diffusivity: [1, 2]}\n"),
     {},
     "case.yaml:2:40: problem.diffusivity: expected a number or an expression, got a list"},
    {"varying coefficient with 19 points",
     std::string("grid: {points: [5, 5, 5], extent: [1, 1, 1]}\n"
                 "problem: {coefficient: \"1 + x\"}\n"
                 "stencil: 19\n"),
     {},
     "case.yaml:3:10: stencil: the 19-point stencil has no form for a varying problem.coefficient: "
     "variable coefficients use the 5-point (2D) / 7-point (3D) flux form; use stencil: 7"},
    {"varying diffusivity with 27 points",
     std::string("grid: {points: [5, 5, 5], extent: [1, 1, 1]}\n"
                 "problem: {equation: heat, diffusivity: \"1 + x\"}\n"
                 "stencil: 27\n"),
     {},
     "case.yaml:3:10: stencil: the 27-point stencil has no form for a varying problem.diffusivity: "
     "variable coefficients use the 5-point (2D) / 7-point (3D) flux form; use stencil: 7"},
    {"varying coefficient with 27 points from --set",
     std::string("grid: {points: [5, 5, 5], extent: [1, 1, 1]}\n"
                 "problem: {equation: poisson, coefficient: \"1 + y*z\"}\n"),
     {"stencil=27"},
     "--set stencil=27: stencil: the 27-point stencil has no form for a varying "
     "problem.coefficient: variable coefficients use the 5-point (2D) / 7-point (3D) flux form; "
     "use stencil: 7"},
    {"fixed with custom",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: custom, fixed: [{where: 1, value: 0}]}\n"
                 "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"),
     {},
     "case.yaml:2:36: problem.fixed: equation custom takes no held nodes (problem.fixed applies to "
     "laplace, poisson and heat)"},
    {"fixed region without value",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {fixed: [{where: \"x < 1\"}]}\n"),
     {},
     "case.yaml:2:19: problem.fixed[0].value: required key is missing"},
    {"second fixed region without where",
     std::string("grid: {points: [5, 5]}\n"
                 "problem:\n"
                 "  fixed:\n"
                 "    - {where: 1, value: 0}\n"
                 "    - {value: 1}\n"),
     {},
     "case.yaml:5:7: problem.fixed[1].where: required key is missing"},
    {"misspelled key in a fixed region",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {fixed: [{where: 1, vlaue: 1}]}\n"),
     {},
     "case.yaml:2:30: problem.fixed[0].vlaue: unknown key 'vlaue' (did you mean 'value'?)"},
    {"fixed where using t",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat, fixed: [{where: \"x < t\", value: 1}]}\n"),
     {},
     "case.yaml:2:43: problem.fixed[0].where: expression 'x < t' uses t, but the held nodes are "
     "time-independent (an expression in x, y, z only)"},
    {"fixed value using t in a steady equation",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: poisson, fixed: [{where: 1, value: \"sin(t)\"}]}\n"),
     {},
     "case.yaml:2:56: problem.fixed[0].value: expression 'sin(t)' uses t, but equation poisson "
     "is steady: a held value may use t only for equation heat (an expression in x, y, z only)"},
    {"fixed as a map",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {fixed: {where: 1, value: 1}}\n"),
     {},
     "case.yaml:2:18: problem.fixed: expected a list of regions {where, value}, got a map"},
    {"fixed region that is a number",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {fixed: [1]}\n"),
     {},
     "case.yaml:2:19: problem.fixed[0]: expected a map of keys, got a single value"},
    {"fixed value as a list",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {fixed: [{where: 1, value: [1]}]}\n"),
     {},
     "case.yaml:2:37: problem.fixed[0].value: expected a number or an expression, got a list"},
    {"misspelled krylov choice",
     std::string("grid: {points: [5, 5]}\n"
                 "solve: {krylov: gc}\n"),
     {},
     "case.yaml:2:17: solve.krylov: ",
     "unknown value 'gc' (expected auto, none, cg)"},
    {"krylov with method jacobi",
     std::string("grid: {points: [5, 5]}\n"
                 "solve: {method: jacobi, krylov: cg}\n"),
     {},
     "case.yaml:2:33: solve.krylov: applies to method multigrid or auto only, not jacobi"},
    {"krylov with custom",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: custom}\n"
                 "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"
                 "solve: {krylov: none}\n"),
     {},
     "case.yaml:4:17: solve.krylov: does not apply to equation custom: multigrid re-discretises "
     "the Laplacian on coarser grids and a custom stencil has no such operator (custom cases are "
     "solved by Jacobi)"},
    {"krylov with explicit heat",
     std::string("grid: {points: [5, 5]}\n"
                 "problem: {equation: heat}\n"
                 "solve: {krylov: cg}\n"),
     {},
     "case.yaml:3:17: solve.krylov: does not apply to equation heat with time.scheme explicit (the "
     "implicit and crank-nicolson schemes solve each step by multigrid)"},
};

// Equal in every field that to_yaml writes.
void check_same_case(const fdsolve::Case& a, const fdsolve::Case& b) {
  CHECK(a.grid == b.grid);
  CHECK(a.problem == b.problem);
  CHECK(a.stencil == b.stencil);
  CHECK(a.boundary == b.boundary);
  CHECK(a.initial == b.initial);
  CHECK(a.solve == b.solve);
  CHECK(a.time == b.time);
  CHECK(a.output == b.output);
}

// Reads `text`, writes it, reads the written text back: an equal case, and the same text again.
std::string check_round_trip(const std::string& text, const std::vector<std::string>& sets = {}) {
  CAPTURE(text);
  const fdsolve::Case original = parse_case(text, "orig.yaml", sets);
  const std::string yaml = fdsolve::to_yaml(original);
  CAPTURE(yaml);
  const fdsolve::Case again = parse_case(yaml, "written.yaml");
  check_same_case(original, again);
  CHECK(fdsolve::to_yaml(again) == yaml);
  return yaml;
}

void check_contains(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) {
    CAPTURE(part);
    CHECK(text.find(part) != std::string::npos);
  }
}

// v[j][i] on a [ny=3][nx=4] grid (all positive, so a valid coefficient too), and a mask.
const std::vector<double> kBeta{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
const std::vector<double> kMask{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};

void write_dataset(const fs::path& path, const std::string& name, const std::vector<hsize_t>& dims,
                   const std::vector<double>& values) {
  const hid_t file = fs::exists(path)
                         ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                         : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t data =
      H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(data >= 0);
  CHECK(H5Dwrite(data, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Dclose(data);
  H5Sclose(space);
  H5Fclose(file);
}

// media.h5 beside the case files: /beta and /mask of the 4 x 3 grid, /wrong of shape [4, 3].
void write_media(const fdsolve::output::test::TempDir& dir) {
  const fs::path file = dir.path() / "media.h5";
  write_dataset(file, "/beta", {3, 4}, kBeta);
  write_dataset(file, "/mask", {3, 4}, kMask);
  write_dataset(file, "/wrong", {4, 3}, kBeta);
}

fdsolve::Case read_in(const fdsolve::output::test::TempDir& dir, const std::string& text) {
  std::ofstream(dir.path() / "case.yaml") << text;
  return fdsolve::read_case_file(dir / "case.yaml");
}

std::string error_in(const fdsolve::output::test::TempDir& dir, const std::string& text) {
  try {
    read_in(dir, text);
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kGrid43 = "grid: {points: [4, 3]}\n";

}  // namespace

TEST_CASE("input media: the defaults are a unit coefficient, no held nodes, krylov auto") {
  const fdsolve::Case c = parse_case(kGrid2, "case.yaml", {});
  CHECK(c.problem.coefficient.is_constant());
  CHECK(c.problem.coefficient.constant == 1.0);
  CHECK(c.problem.diffusivity == 1.0);
  CHECK(c.problem.fixed.empty());
  CHECK(c.solve.krylov == fdsolve::KrylovChoice::Auto);
}

TEST_CASE("input media: problem.coefficient as a number and as an expression") {
  const fdsolve::Case n =
      parse_case(kGrid2 + "problem: {equation: poisson, source: 1, coefficient: 2.5}\n", "c", {});
  CHECK(n.problem.coefficient.is_constant());
  CHECK(n.problem.coefficient.constant == 2.5);
  CHECK(n.problem.diffusivity == 1.0);
  CHECK(n.locations.count("problem.coefficient") == 1);

  const fdsolve::Case e = parse_case(kGrid2 + "problem: {coefficient: \"1 + x*y\"}\n", "c", {});
  CHECK(e.problem.equation == fdsolve::Equation::Laplace);
  CHECK(e.problem.coefficient.is_expression());
  CHECK(e.problem.coefficient.expression == "1 + x*y");
  CHECK_FALSE(e.problem.coefficient.uses_time);

  // A varying coefficient with the 7-point stencil in 3D; 19 points with a constant one.
  const fdsolve::Case seven = parse_case(
      "grid: {points: [5, 5, 5]}\nproblem: {coefficient: \"1 + z\"}\nstencil: 7\n", "c", {});
  CHECK(seven.stencil.points == 7);
  const fdsolve::Case nineteen =
      parse_case("grid: {points: [5, 5, 5]}\nproblem: {coefficient: 3}\nstencil: 19\n", "c", {});
  CHECK(nineteen.stencil.points == 19);
  CHECK(nineteen.problem.coefficient.constant == 3.0);
  // An expression without x, y, z does not vary: it is taken as its number.
  const fdsolve::Case folded = parse_case(
      "grid: {points: [5, 5, 5]}\nproblem: {coefficient: \"2*pi\"}\nstencil: 27\n", "c", {});
  CHECK(folded.problem.coefficient.is_constant());
  CHECK(folded.problem.coefficient.constant == doctest::Approx(6.283185307179586));
  const fdsolve::Case k =
      parse_case(kGrid2 + "problem: {equation: heat, diffusivity: \"1/4\"}\n", "c", {});
  CHECK(k.problem.diffusivity == 0.25);
  CHECK(k.problem.coefficient.is_constant());
}

TEST_CASE("input media: heat's diffusivity is a number as before, or a coefficient field") {
  const fdsolve::Case n =
      parse_case(kGrid2 + "problem: {equation: heat, diffusivity: 0.1}\n", "c", {});
  CHECK(n.problem.diffusivity == 0.1);  // the same double as before the field forms existed
  CHECK(n.problem.coefficient.is_constant());
  CHECK(n.problem.coefficient.constant == 1.0);

  const fdsolve::Case e =
      parse_case(kGrid2 + "problem: {equation: heat, diffusivity: \"0.5 + x\"}\n", "c", {});
  CHECK(e.problem.diffusivity == 1.0);
  CHECK(e.problem.coefficient.expression == "0.5 + x");
  // Stencil 27 with a number for k is still fine.
  const fdsolve::Case k27 = parse_case(
      "grid: {points: [5, 5, 5]}\nproblem: {equation: heat, diffusivity: 2}\nstencil: 27\n", "c",
      {});
  CHECK(k27.problem.diffusivity == 2.0);
}

TEST_CASE("input media: problem.fixed regions, in order") {
  const fdsolve::Case c = parse_case(kGrid2 +
                                         "problem:\n  equation: heat\n  fixed:\n"
                                         "    - {where: \"(x-2)^2 + (y-2)^2 < 1\", value: 5}\n"
                                         "    - {value: \"x + y\", where: 1}\n",
                                     "c", {});
  REQUIRE(c.problem.fixed.size() == 2);
  CHECK(c.problem.fixed[0].where.expression == "(x-2)^2 + (y-2)^2 < 1");
  CHECK(c.problem.fixed[0].value.is_constant());
  CHECK(c.problem.fixed[0].value.constant == 5.0);
  CHECK(c.problem.fixed[1].where.is_constant());
  CHECK(c.problem.fixed[1].where.constant == 1.0);
  CHECK(c.problem.fixed[1].value.expression == "x + y");
  CHECK(c.locations.at("problem.fixed[1].where") == "c:6:31");
  CHECK_FALSE(c.problem.fixed[1].value.uses_time);
  // Heat's held values may follow t; the steady equations refuse it (see the bad cases).
  const fdsolve::Case ramp = parse_case(
      kGrid2 + "problem: {equation: heat, fixed: [{where: 1, value: \"min(t/0.1, 1)\"}]}\n",
      "c", {});
  CHECK(ramp.problem.fixed[0].value.uses_time);
  // An empty list holds nothing; laplace and poisson take regions too.
  CHECK(parse_case(kGrid2 + "problem: {fixed: []}\n", "c", {}).problem.fixed.empty());
  CHECK(
      parse_case(kGrid2 + "problem: {equation: poisson, fixed: [{where: 1, value: 0}]}\n", "c", {})
          .problem.fixed.size() == 1);
}

TEST_CASE("input media: solve.krylov and the coefficient and fixed output fields") {
  using fdsolve::KrylovChoice;
  CHECK(parse_case(kGrid2 + "solve: {krylov: none}\n", "c", {}).solve.krylov == KrylovChoice::None);
  CHECK(parse_case(kGrid2 + "solve: {krylov: cg, method: multigrid}\n", "c", {}).solve.krylov ==
        KrylovChoice::Cg);
  CHECK(parse_case(kGrid2 + "solve: {krylov: auto}\n", "c", {}).solve.krylov == KrylovChoice::Auto);
  // Implicit heat solves each step by multigrid, which CG may wrap.
  CHECK(parse_case(kGrid2 + "problem: {equation: heat}\ntime: {scheme: implicit, dt: 0.1}\n"
                            "solve: {krylov: cg}\n",
                   "c", {})
            .solve.krylov == KrylovChoice::Cg);
  const fdsolve::Case o =
      parse_case(kGrid2 + "output: {fields: [u, coefficient, fixed]}\n", "c", {});
  CHECK(o.output.fields == std::vector<std::string>{"u", "coefficient", "fixed"});
}

TEST_CASE("input media: the new keys take --set overrides") {
  const fdsolve::Case c = parse_case(
      kGrid2 + "problem: {equation: poisson, coefficient: 4}\n", "f.yaml",
      {"problem.coefficient=2", "solve.krylov=cg", "problem.fixed=[{where: \"x < 1\", value: 3}]"});
  CHECK(c.problem.coefficient.constant == 2.0);
  CHECK(c.solve.krylov == fdsolve::KrylovChoice::Cg);
  REQUIRE(c.problem.fixed.size() == 1);
  CHECK(c.problem.fixed[0].where.expression == "x < 1");
  CHECK(c.locations.at("problem.coefficient") == "--set problem.coefficient=2");
  CHECK(c.locations.at("problem.fixed[0].value") ==
        "--set problem.fixed=[{where: \"x < 1\", value: 3}]");
  const fdsolve::Case e = parse_case(kGrid2 + "problem: {equation: heat}\n", "f.yaml",
                                     {"problem.diffusivity=\"1 + y\""});
  CHECK(e.problem.coefficient.expression == "1 + y");
  CHECK(e.problem.diffusivity == 1.0);
}

TEST_CASE("input media: bad coefficients, held regions and krylov fail with one located line") {
  check_bad_inputs(kBadMediaInputs);
}

TEST_CASE("input media: coefficient, diffusivity and fixed regions from HDF5 files") {
  fdsolve::output::test::TempDir dir;
  write_media(dir);
  const fdsolve::Case c = read_in(
      dir, kGrid43 +
               "problem:\n  equation: poisson\n  coefficient: {file: media.h5, dataset: beta}\n"
               "  fixed:\n    - {where: {file: media.h5, dataset: /mask}, value: 2}\n"
               "    - {where: \"x > 2\", value: {file: media.h5, dataset: /beta}}\n");
  CHECK(c.problem.coefficient.is_file());
  CHECK(c.problem.coefficient.dataset == "/beta");
  CHECK(c.problem.coefficient.file_path == (dir.path() / "media.h5").string());
  CHECK(fdsolve::read_dataset_values(c.problem.coefficient, c.grid) == kBeta);
  REQUIRE(c.problem.fixed.size() == 2);
  CHECK(fdsolve::read_dataset_values(c.problem.fixed[0].where, c.grid) == kMask);
  CHECK(c.problem.fixed[1].value.is_file());

  const fdsolve::Case h = read_in(
      dir, kGrid43 + "problem: {equation: heat, diffusivity: {file: media.h5, dataset: /beta}}\n");
  CHECK(h.problem.coefficient.is_file());
  CHECK(h.problem.diffusivity == 1.0);

  // Written and read back from the same directory: equal, and the same text again.
  for (const fdsolve::Case* k : {&c, &h}) {
    const std::string yaml = fdsolve::to_yaml(*k);
    CAPTURE(yaml);
    std::ofstream(dir.path() / "again.yaml") << yaml;
    const fdsolve::Case again = fdsolve::read_case_file(dir / "again.yaml");
    CHECK(again.problem == k->problem);
    CHECK(again.problem.coefficient.file_path == k->problem.coefficient.file_path);
    CHECK(fdsolve::to_yaml(again) == yaml);
  }
  check_contains(fdsolve::to_yaml(c),
                 {"coefficient: {file: \"media.h5\", dataset: \"/beta\"}",
                  "{where: {file: \"media.h5\", dataset: \"/mask\"}, value: 2}"});
  check_contains(fdsolve::to_yaml(h), {"diffusivity: {file: \"media.h5\", dataset: \"/beta\"}"});
}

TEST_CASE("input media: data files of the wrong shape are refused, naming dataset and shape") {
  fdsolve::output::test::TempDir dir;
  write_media(dir);
  const std::string where = dir / "case.yaml";
  const std::string shape =
      "dataset /wrong of media.h5 has shape [4, 3], the grid needs [3, 4] ([ny, nx])";
  // "problem: {coefficient: {file: media.h5, dataset: " puts the dataset at column 50.
  CHECK(error_in(dir, kGrid43 + "problem: {coefficient: {file: media.h5, dataset: /wrong}}\n") ==
        where + ":2:50: problem.coefficient.dataset: " + shape);
  CHECK(error_in(dir, kGrid43 + "problem: {equation: heat, diffusivity: {file: media.h5, dataset: "
                                "/wrong}}\n") ==
        where + ":2:66: problem.diffusivity.dataset: " + shape);
  // "    - {where: {file: media.h5, dataset: " puts the dataset at column 41.
  CHECK(error_in(dir, kGrid43 +
                          "problem:\n  fixed:\n    - {where: {file: media.h5, dataset: /wrong}, "
                          "value: 1}\n") ==
        where + ":4:41: problem.fixed[0].where.dataset: " + shape);
  CHECK(error_in(dir, kGrid43 + "problem:\n  fixed:\n    - {where: 1, value: {file: media.h5, "
                                "dataset: /wrong}}\n") ==
        where + ":4:51: problem.fixed[0].value.dataset: " + shape);
  CHECK(error_in(dir, kGrid43 + "problem: {coefficient: {file: none.h5, dataset: /b}}\n") ==
        where + ":2:31: problem.coefficient.file: cannot open none.h5: no such file");
}

TEST_CASE("input media: to_yaml writes the new keys so that they read back") {
  const std::string expr = check_round_trip(
      kGrid2 + "problem: {equation: poisson, source: 1, coefficient: \"1 + 99*(x > 0.5)\"}\n");
  check_contains(expr, {"coefficient: \"1 + 99*(x > 0.5)\""});
  const std::string number =
      check_round_trip(kGrid2 + "problem: {coefficient: 0.25}\nsolve: {krylov: none}\n");
  check_contains(number, {"coefficient: 0.25", "krylov: none"});
  const std::string heat = check_round_trip(
      "grid: {points: [5, 5, 5]}\nproblem: {equation: heat, diffusivity: \"exp(-x)\"}\n"
      "time: {scheme: crank-nicolson, dt: 0.5}\nsolve: {krylov: cg}\n");
  check_contains(heat, {"diffusivity: \"exp(-x)\"", "krylov: cg"});
  const std::string fixed =
      check_round_trip(kGrid2 +
                       "problem:\n  equation: heat\n  diffusivity: 0.3\n  fixed:\n"
                       "    - {where: \"x < 1\", value: 0}\n    - {where: 1, value: \"sin(x)\"}\n"
                       "output: {fields: [u, fixed, coefficient]}\n");
  check_contains(fixed, {"diffusivity: 0.3", "- {where: \"x < 1\", value: 0}",
                         "- {where: 1, value: \"sin(x)\"}", "fields: [u, fixed, coefficient]"});
  check_round_trip(kGrid2,
                   {"problem.coefficient=\"2 + y\"", "problem.fixed=[{where: 1, value: 1}]"});
  // A case without the new keys is written as before: no coefficient, fixed or krylov.
  const std::string plain = check_round_trip(kGrid2 + "problem: {equation: poisson}\n");
  for (const char* key : {"coefficient", "fixed", "krylov"}) {
    CAPTURE(key);
    CHECK(plain.find(key) == std::string::npos);
  }
  const std::string one = check_round_trip(kGrid2 + "problem: {coefficient: 1}\n");
  CHECK(one.find("coefficient") == std::string::npos);
}
