// to_yaml writes every resolved key; parse_case of that text gives back an equal Case.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "number_text.hpp"

namespace {
// Equal in every field but locations and source_path, which describe where the text came from.
void check_same_case(const fdsolve::Case& a, const fdsolve::Case& b) {
  CHECK(a.name == b.name);
  CHECK(a.precision == b.precision);
  CHECK(a.backend == b.backend);
  CHECK(a.grid == b.grid);
  CHECK(a.problem == b.problem);
  CHECK(a.stencil == b.stencil);
  CHECK(a.boundary == b.boundary);
  CHECK(a.initial == b.initial);
  CHECK(a.solve == b.solve);
  CHECK(a.time == b.time);
  CHECK(a.output == b.output);
  CHECK(a.checkpoint == b.checkpoint);
  CHECK(a.tuning == b.tuning);
  CHECK(a.parallel == b.parallel);
  for (int face = 0; face < 6; ++face) {
    CHECK(a.boundary[face].value.uses_time == b.boundary[face].value.uses_time);
    CHECK(a.boundary[face].gradient.uses_time == b.boundary[face].gradient.uses_time);
    CHECK(a.boundary[face].ambient.uses_time == b.boundary[face].ambient.uses_time);
  }
  CHECK(a.problem.source.uses_time == b.problem.source.uses_time);
}

// Returns the written text so that callers can check what it lists.
std::string check_round_trip(const std::string& text, const std::vector<std::string>& sets = {}) {
  CAPTURE(text);
  const fdsolve::Case original = fdsolve::parse_case(text, "orig.yaml", sets);
  const std::string yaml = fdsolve::to_yaml(original);
  CAPTURE(yaml);
  const fdsolve::Case again = fdsolve::parse_case(yaml, "written.yaml");
  check_same_case(original, again);
  // Writing the re-read case gives the same text: nothing drifts on a second pass.
  CHECK(fdsolve::to_yaml(again) == yaml);
  return yaml;
}
}  // namespace

TEST_CASE("input: to_yaml round trip of a minimal 2D case") {
  check_round_trip("grid: {points: [5, 5]}\n");
}

TEST_CASE("input: to_yaml round trip of a 2D case with expressions") {
  check_round_trip(
      "name: plate\nprecision: float\nbackend: cuda\n"
      "grid: {points: [65, 33], extent: [0.1, 0.3], origin: [-0.05, 1e-7]}\n"
      "problem: {equation: poisson, source: \"-2*pi^2*sin(pi*x)*sin(pi*y)\"}\n"
      "boundary:\n  default: {value: 0.1}\n  x_min: {value: \"sin(pi*y)\"}\n"
      "  y_max: {value: \"exp(-x) + y\"}\n"
      "initial: \"x*(1-x)\"\n"
      "solve: {tolerance: 3.3e-9, absolute_tolerance: 1e-300, norm: linf, check_every: 7,\n"
      "        diagnostics: false, stagnation_checks: 3}\n"
      "output: {directory: \"my dir/a\", every: 100, fields: [update, u, source]}\n"
      "tuning: {kernel: \"tile_32x8\", blocked_kernel: tb128x64}\n");
}

TEST_CASE("input: to_yaml round trip of robin faces") {
  const std::string heat = check_round_trip(
      "grid: {points: [9, 9, 9]}\nproblem: {equation: heat}\n"
      "boundary:\n  default: {type: robin, h: 0.1, ambient: \"0.5 + 0.1*t*z\"}\n"
      "  x_min: {type: robin, h: 1e-300}\n  y_max: {type: robin, h: 0, ambient: -3.25}\n");
  CHECK(heat.find("robin") != std::string::npos);
  const fdsolve::Case c = fdsolve::parse_case(heat, "written.yaml");
  CHECK(c.boundary[fdsolve::XMax].type == fdsolve::BoundaryType::Robin);
  CHECK(c.boundary[fdsolve::XMax].h == 0.1);
  CHECK(c.boundary[fdsolve::XMax].ambient.uses_time);
  CHECK(c.boundary[fdsolve::XMin].h == 1e-300);
  CHECK(c.boundary[fdsolve::XMin].ambient.constant == 0.0);
  CHECK(c.boundary[fdsolve::YMax].ambient.constant == -3.25);
  check_round_trip(
      "grid: {points: [9, 9]}\nproblem: {equation: poisson, source: 1}\n"
      "boundary:\n  default: {type: robin, h: 2.5, ambient: \"x*y\"}\n");
}

TEST_CASE("input: to_yaml round trip of a 3D custom 27-point case") {
  check_round_trip(
      "grid: {points: [17, 17, 17]}\n"
      "problem: {equation: custom}\n"
      "stencil: {points: 27, weights: {center: 0.5, face: 0.1, edge: 0.01, corner: 0.001}}\n"
      "boundary: {z_max: {value: 1}, x_min: {value: \"z*z\"}}\n");
}

TEST_CASE("input: to_yaml round trip of 3D 19-point and 2D custom cases") {
  check_round_trip("grid: {points: [9, 9, 9], extent: [1, 1, 1]}\nstencil: 19\n");
  check_round_trip(
      "grid: {points: [9, 5]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.2, x: 0.3, y: 0.1}}\n");
}

TEST_CASE("input: to_yaml round trip of heat cases writes time and leaves Jacobi stops out") {
  const std::string yaml = check_round_trip(
      "grid: {points: [9, 5], extent: [2, 1]}\n"
      "problem: {equation: heat, diffusivity: 0.25, source: \"sin(pi*x)*exp(-t)\"}\n"
      "boundary:\n  default: {type: neumann, gradient: \"0.5*t\"}\n"
      "  x_min: {type: dirichlet, value: \"cos(t)\"}\n"
      "initial: \"x*y + t\"\n"
      "time: {end: 0.5, dt: 1e-3, safety: 0.5}\n"
      "solve: {norm: linf, check_every: 10, divergence_factor: 1e3, diagnostics: false}\n"
      "output: {every: 25}\ncheckpoint: {every: 50}\n");
  for (const char* key :
       {"equation: heat", "diffusivity: 0.25", "time:", "end: 0.5", "dt: 0.001", "safety: 0.5",
        "check_every: 10", "norm: linf", "every: 50", "{type: neumann, gradient: \"0.5*t\"}",
        "diagnostics: false", "{type: dirichlet, value: \"cos(t)\"}"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) != std::string::npos);
  }
  for (const char* key :
       {"max_iterations", "tolerance", "stagnation_checks", "method", "multigrid", "criterion"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) == std::string::npos);
  }
  const std::string defaults =
      check_round_trip("grid: {points: [5, 5]}\nproblem: {equation: heat}\n");
  for (const char* key :
       {"source: 0", "diffusivity: 1", "scheme: explicit", "end: 1", "dt: auto", "safety: 0.9"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(defaults.find(key) != std::string::npos);
  }
}

TEST_CASE("input: to_yaml round trip of heat's capacity: a number, an expression") {
  const std::string number = check_round_trip(
      "grid: {points: [9, 5]}\nproblem: {equation: heat, capacity: 2.5, diffusivity: 3}\n");
  CHECK(number.find("capacity: 2.5") != std::string::npos);
  const std::string field = check_round_trip(
      "grid: {points: [9, 5]}\nproblem: {equation: heat, capacity: \"1 + x*y\"}\n");
  CHECK(field.find("capacity: \"1 + x*y\"") != std::string::npos);
  // capacity: 1 is the default: its case's text is that of a case without the key.
  const fdsolve::Case one = fdsolve::parse_case(
      "grid: {points: [9, 5]}\nproblem: {equation: heat, capacity: 1}\n", "case.yaml", {});
  const fdsolve::Case none = fdsolve::parse_case(
      "grid: {points: [9, 5]}\nproblem: {equation: heat}\n", "case.yaml", {});
  CHECK(fdsolve::to_yaml(one) == fdsolve::to_yaml(none));
  CHECK(fdsolve::to_yaml(one).find("capacity") == std::string::npos);
}

TEST_CASE("input: to_yaml round trip of periodic and neumann faces") {
  const std::string yaml = check_round_trip(
      "grid: {points: [6, 5, 4]}\n"
      "problem: {equation: poisson, source: 1}\n"
      "boundary:\n  default: {type: periodic}\n"
      "  z_min: {type: dirichlet, value: 0}\n  z_max: {type: neumann, gradient: -2}\n");
  CHECK(yaml.find("x_min: {type: periodic}") != std::string::npos);
  CHECK(yaml.find("y_max: {type: periodic}") != std::string::npos);
  CHECK(yaml.find("z_max: {type: neumann, gradient: -2}") != std::string::npos);
  // The default extent of a periodic axis (points, spacing 1) is written out as such.
  CHECK(yaml.find("extent: [6, 5, 3]") != std::string::npos);
  check_round_trip(
      "grid: {points: [4, 4, 4]}\nproblem: {equation: heat}\n"
      "boundary: {default: {type: periodic}}\nstencil: 27\n");
  check_round_trip(
      "grid: {points: [7, 5], extent: [1, 2]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.2, x: 0.3, y: 0.1}}\n"
      "boundary: {default: {type: neumann}, y_min: {type: periodic}, y_max: {type: periodic}}\n");
}

TEST_CASE("input: to_yaml keeps doubles exact and lists every key") {
  fdsolve::Case c = fdsolve::parse_case("grid: {points: [5, 5]}\n", "exact.yaml");
  // Values with no short decimal form must still come back bit for bit.
  c.solve.tolerance = std::nextafter(1e-6, 1.0);
  c.grid.extent[0] = 1.0 / 3.0;
  c.initial.constant = -0.1 * 3;
  const std::string yaml = fdsolve::to_yaml(c);
  const fdsolve::Case again = fdsolve::parse_case(yaml, "exact.yaml");
  CHECK(again.solve.tolerance == c.solve.tolerance);
  CHECK(again.grid.extent[0] == c.grid.extent[0]);
  CHECK(again.initial.constant == c.initial.constant);
  for (const char* key : {"name:",
                          "precision:",
                          "backend:",
                          "points:",
                          "extent:",
                          "origin:",
                          "equation:",
                          "stencil:",
                          "x_min:",
                          "y_max:",
                          "initial:",
                          "max_iterations:",
                          "divergence_factor:",
                          "diagnostics: true",
                          "stagnation_checks: 10",
                          "method: auto",
                          "criterion: auto",
                          "multigrid:",
                          "cycle: v",
                          "pre_smooth: 2",
                          "post_smooth: 2",
                          "fmg: true",
                          "parallel: {ranks: auto}",
                          "directory: out/exact",
                          "fields:",
                          "checkpoint:",
                          "tuning:"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) != std::string::npos);
  }
  // Keys that do not apply to equation laplace are left out: they would be errors on reading.
  // (time: at the start of a line: the section, not solve.max_wall_time.)
  for (const char* key : {"source:", "diffusivity:", "\ntime:", "gradient:"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) == std::string::npos);
  }
  // A 2D case lists no z faces: they would be errors on reading.
  CHECK(yaml.find("z_min") == std::string::npos);
}

TEST_CASE("input: to_yaml round trip of multigrid settings, criterion and ranks") {
  const std::string yaml = check_round_trip(
      "grid: {points: [17, 9, 9]}\nproblem: {equation: poisson, source: 1}\n"
      "solve:\n  method: multigrid\n  criterion: residual\n"
      "  multigrid: {cycle: w, pre_smooth: 4, post_smooth: 1, fmg: false}\n"
      "parallel: {ranks: [4, 2, 1], overlap: false}\n");
  for (const char* key : {"method: multigrid", "criterion: residual", "cycle: w", "pre_smooth: 4",
                          "post_smooth: 1", "fmg: false",
                          "parallel: {ranks: [4, 2, 1], overlap: false}"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) != std::string::npos);
  }
  const std::string mixed = check_round_trip(
      "grid: {points: [9, 9]}\nprecision: double\nsolve: {multigrid: {precision: float}}\n");
  CHECK(mixed.find("precision: float") != std::string::npos);
  check_round_trip(
      "grid: {points: [9, 9]}\nsolve: {multigrid: {pre_smooth: 1}, criterion: update}\n"
      "parallel: {ranks: [1, 1]}\n");
  check_round_trip("grid: {points: [9, 9]}\nparallel: {ranks: auto}\n", {"parallel.ranks=[3, 2]"});
  const std::string gather =
      check_round_trip("grid: {points: [9, 9]}\nparallel: {ranks: auto, gather_below: 16}\n");
  CHECK(gather.find("parallel: {ranks: auto, gather_below: 16}") != std::string::npos);
  check_round_trip("grid: {points: [9, 9]}\n", {"parallel.overlap=false"});
}

TEST_CASE("input: to_yaml leaves multigrid settings out where they do not apply") {
  // Jacobi: the method and criterion are written, the multigrid settings are not.
  const std::string jacobi =
      check_round_trip("grid: {points: [9, 9]}\nsolve: {method: jacobi, criterion: residual}\n");
  CHECK(jacobi.find("method: jacobi") != std::string::npos);
  CHECK(jacobi.find("criterion: residual") != std::string::npos);
  CHECK(jacobi.find("multigrid") == std::string::npos);
  // Custom: no multigrid settings either.
  const std::string custom = check_round_trip(
      "grid: {points: [9, 9]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.2, x: 0.3, y: 0.1}}\n"
      "solve: {criterion: update}\n");
  CHECK(custom.find("method: auto") != std::string::npos);
  CHECK(custom.find("criterion: update") != std::string::npos);
  CHECK(custom.find("multigrid") == std::string::npos);
}

TEST_CASE("input: to_yaml round trip of implicit heat writes the per-step multigrid keys") {
  const std::string yaml = check_round_trip(
      "grid: {points: [9, 9]}\nproblem: {equation: heat}\n"
      "time: {scheme: implicit, dt: 0.75, end: 3}\n"
      "solve: {multigrid: {cycle: w, post_smooth: 3}, max_iterations: 15, tolerance: 1e-9}\n");
  for (const char* key :
       {"scheme: implicit", "dt: 0.75", "method: auto", "cycle: w", "post_smooth: 3",
        "max_iterations: 15", "tolerance: 1e-9", "absolute_tolerance: 0"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) != std::string::npos);
  }
  for (const char* key : {"safety", "criterion", "stagnation_checks", "dt: auto"}) {
    const std::string what = key;
    CAPTURE(what);
    CHECK(yaml.find(key) == std::string::npos);
  }
  const std::string cn = check_round_trip(
      "grid: {points: [5, 5, 5]}\nproblem: {equation: heat}\n"
      "time: {scheme: crank-nicolson, dt: 2}\nsolve: {method: multigrid}\n"
      "parallel: {ranks: [1, 1, 2]}\n");
  CHECK(cn.find("scheme: crank-nicolson") != std::string::npos);
  CHECK(cn.find("method: multigrid") != std::string::npos);
  CHECK(cn.find("multigrid:") != std::string::npos);
}

TEST_CASE("input: number text is the shortest that reads back exactly") {
  CHECK(fdsolve::format_number(1e-6) == "1e-6");
  CHECK(fdsolve::format_number(1e6) == "1e6");
  CHECK(fdsolve::format_number(0.1) == "0.1");
  CHECK(fdsolve::format_number(-2.5) == "-2.5");
  std::vector<double> values{0.0,
                             -0.0,
                             1.0 / 3.0,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::min(),
                             std::numeric_limits<double>::denorm_min(),
                             123456789012345678.0};
  // Random bit patterns cover every exponent; non-finite ones are not case values.
  std::mt19937_64 bits(20240601);
  while (values.size() < 2000) {
    const std::uint64_t word = bits();
    double v;
    std::memcpy(&v, &word, sizeof v);
    if (std::isfinite(v)) values.push_back(v);
  }
  for (const double v : values) {
    const std::string text = fdsolve::format_number(v);
    CAPTURE(text);
    const auto back = fdsolve::parse_number_text(text);
    REQUIRE(back.has_value());
    CHECK(std::memcmp(&*back, &v, sizeof v) == 0);
  }
  CHECK_FALSE(fdsolve::parse_number_text("nan").has_value());
  CHECK_FALSE(fdsolve::parse_number_text("1e999").has_value());
  CHECK_FALSE(fdsolve::parse_number_text("5abc").has_value());
  CHECK(fdsolve::parse_integer_text("+12") == 12);
  CHECK_FALSE(fdsolve::parse_integer_text("1e3").has_value());
}
