// A minimal case gets every default of SPEC.md; given values and their file positions are kept.
#include <doctest/doctest.h>

#include "case_reader.hpp"

using fdsolve::parse_case;

TEST_CASE("input: a minimal 2D case has every default filled in") {
  const fdsolve::Case c = parse_case("grid: {points: [5, 9]}\n", "cases/plate.yaml");
  CHECK(c.name == "plate");
  CHECK(c.source_path == "cases/plate.yaml");
  CHECK(c.precision == fdsolve::Precision::Double);
  CHECK(c.backend == fdsolve::BackendChoice::Auto);
  CHECK(c.grid.dims == 2);
  CHECK(c.grid.points[0] == 5);
  CHECK(c.grid.points[1] == 9);
  // Default extent is points - 1, i.e. unit spacing.
  CHECK(c.grid.extent[0] == 4.0);
  CHECK(c.grid.extent[1] == 8.0);
  CHECK(c.grid.spacing(0) == 1.0);
  CHECK(c.grid.spacing(1) == 1.0);
  CHECK(c.grid.origin[0] == 0.0);
  CHECK(c.problem.equation == fdsolve::Equation::Laplace);
  CHECK(c.problem.source.is_constant());
  CHECK(c.problem.source.constant == 0.0);
  CHECK(c.stencil.points == 5);
  CHECK_FALSE(c.stencil.custom);
  for (const auto& bc : c.boundary) {
    CHECK(bc.type == fdsolve::BoundaryType::Dirichlet);
    CHECK(bc.value.is_constant());
    CHECK(bc.value.constant == 0.0);
  }
  CHECK(c.initial.constant == 0.0);
  CHECK(c.solve.max_iterations == 1000000);
  CHECK(c.solve.tolerance == 1e-6);
  CHECK(c.solve.absolute_tolerance == 0.0);
  CHECK(c.solve.norm == fdsolve::NormKind::L2);
  CHECK(c.solve.check_every == 100);
  CHECK(c.solve.divergence_factor == 1e6);
  CHECK(c.solve.diagnostics);
  CHECK(c.solve.stagnation_checks == 10);
  CHECK(c.output.directory == "out/plate");
  CHECK(c.output.every == 0);
  CHECK(c.output.fields == std::vector<std::string>{"u"});
  CHECK(c.tuning.kernel.empty());
}

TEST_CASE("input: a 3D case defaults to the 7-point stencil") {
  const fdsolve::Case c = parse_case("grid:\n  points: [3, 4, 5]\n  extent: [1, 1, 1]\n", "cube");
  CHECK(c.grid.dims == 3);
  CHECK(c.stencil.points == 7);
  CHECK(c.grid.spacing(0) == 0.5);
  CHECK(c.grid.spacing(2) == 0.25);
  CHECK(c.name == "cube");
}

TEST_CASE("input: given values are read and located") {
  const char* text =
      "name: run1\n"
      "precision: float\n"
      "backend: cpu\n"
      "grid:\n"
      "  points: [9, 9, 9]\n"
      "  extent: [2, 2, 2]\n"
      "  origin: [-1, -1, -1]\n"
      "problem: {equation: poisson, source: \"sin(pi*x)\"}\n"
      "stencil: 27\n"
      "boundary:\n"
      "  default: {value: 1}\n"
      "  x_min: {type: dirichlet, value: \"y*z\"}\n"
      "initial: 0.5\n"
      "solve: {max_iterations: 10, tolerance: 0, absolute_tolerance: 1e-9, norm: linf,\n"
      "        check_every: 5, divergence_factor: 100, diagnostics: false,"
      " stagnation_checks: 0}\n"
      "output: {directory: results, every: 7, fields: [source, u]}\n"
      "checkpoint: {every: 0}\n"
      "tuning: {kernel: tiled}\n";
  const fdsolve::Case c = parse_case(text, "in.yaml");
  CHECK(c.name == "run1");
  CHECK(c.precision == fdsolve::Precision::Float);
  CHECK(c.backend == fdsolve::BackendChoice::Cpu);
  CHECK(c.grid.origin[2] == -1.0);
  CHECK(c.problem.equation == fdsolve::Equation::Poisson);
  CHECK(c.problem.source.expression == "sin(pi*x)");
  CHECK(c.stencil.points == 27);
  CHECK(c.boundary[fdsolve::XMin].value.expression == "y*z");
  CHECK(c.boundary[fdsolve::XMax].value.constant == 1.0);
  CHECK(c.boundary[fdsolve::ZMax].value.constant == 1.0);
  CHECK(c.initial.constant == 0.5);
  CHECK(c.solve.max_iterations == 10);
  CHECK(c.solve.absolute_tolerance == 1e-9);
  CHECK(c.solve.norm == fdsolve::NormKind::Linf);
  CHECK(c.solve.check_every == 5);
  CHECK_FALSE(c.solve.diagnostics);
  CHECK(c.solve.stagnation_checks == 0);
  CHECK(c.output.directory == "results");
  CHECK(c.output.fields == std::vector<std::string>{"source", "u"});
  CHECK(c.tuning.kernel == "tiled");
  // Locations point at the values (line 5 "  points: [9, 9, 9]": the list starts in column 11).
  CHECK(c.locations.at("grid.points") == "in.yaml:5:11");
  CHECK(c.locations.at("solve.check_every") == "in.yaml:15:22");
  CHECK(c.locations.at("boundary.x_min.value") == "in.yaml:12:35");
  CHECK(c.where("tuning.kernel") == "in.yaml:18:18: ");
  CHECK(c.where("solve") == "in.yaml:14:8: ");
  // A key that was defaulted has no location of its own: the file is named.
  CHECK(c.where("output.nothing") == "in.yaml: ");
}

TEST_CASE("input: custom stencils fill the weights") {
  const fdsolve::Case c2 = parse_case(
      "grid: {points: [5, 5]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.2, x: 0.3, y: 0.1}}\n",
      "c2");
  CHECK(c2.stencil.custom);
  CHECK(c2.stencil.points == 5);
  CHECK(c2.stencil.center == 0.2);
  CHECK(c2.stencil.face[0] == 0.3);
  CHECK(c2.stencil.face[1] == 0.1);
  CHECK(c2.stencil.face[2] == 0.0);

  const fdsolve::Case c3 = parse_case(
      "grid: {points: [5, 5, 5]}\nproblem: {equation: custom}\n"
      "stencil: {points: 27, weights: {center: 0.5, face: 0.1, edge: 0.01, corner: 0.001}}\n",
      "c3");
  CHECK(c3.stencil.points == 27);
  CHECK(c3.stencil.face == std::array<double, 3>{0.1, 0.1, 0.1});
  CHECK(c3.stencil.edge == 0.01);
  CHECK(c3.stencil.corner == 0.001);
}

TEST_CASE("input: 19 and 27 points accept equal spacing within 1e-12") {
  // hy differs from hx by a relative 1e-13: equal enough. At 1e-11 it is not.
  const fdsolve::Case c = parse_case(
      "grid: {points: [11, 11, 31], extent: [1, 1.0000000000001, 3]}\nstencil: 19\n", "eq");
  CHECK(c.stencil.points == 19);
  CHECK_THROWS_AS(
      parse_case("grid: {points: [11, 11, 31], extent: [1, 1.00000000001, 3]}\nstencil: 19\n",
                 "eq"),
      fdsolve::InputError);
}

TEST_CASE("input: the default name replaces characters a name may not contain") {
  CHECK(parse_case("grid: {points: [3, 3]}\n", "dir/my plate.yaml").name == "my_plate");
}
