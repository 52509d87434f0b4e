// A minimal case gets every documented default; given values and their file positions are kept.
#include <doctest/doctest.h>

#include <array>

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
  // The method and criterion stay auto: the solver resolves them (multigrid where it applies).
  CHECK(c.solve.method == fdsolve::SolveMethod::Auto);
  CHECK(c.solve.criterion == fdsolve::Criterion::Auto);
  CHECK(c.solve.multigrid.cycle == fdsolve::CycleKind::V);
  CHECK(c.solve.multigrid.pre_smooth == 2);
  CHECK(c.solve.multigrid.post_smooth == 2);
  CHECK(c.solve.multigrid.fmg);
  CHECK(c.time.scheme == fdsolve::TimeScheme::Explicit);
  CHECK(c.parallel.ranks == std::array<int, 3>{0, 0, 0});
  CHECK(c.parallel.overlap);
  CHECK(c.output.directory == "out/plate");
  CHECK(c.output.every == 0);
  CHECK(c.output.fields == std::vector<std::string>{"u"});
  CHECK_FALSE(c.output.float_precision);
  CHECK(c.output.gzip_level == 0);
  CHECK(c.tuning.kernel.empty());
  CHECK(c.tuning.blocked_kernel.empty());
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

TEST_CASE("input: heat defaults to the explicit scheme with dt auto") {
  const fdsolve::Case c = parse_case("grid: {points: [5, 5]}\nproblem: {equation: heat}\n", "h");
  CHECK(c.time.scheme == fdsolve::TimeScheme::Explicit);
  CHECK(c.time.dt_auto);
  CHECK(c.time.safety == 0.9);
  CHECK(c.time.end == 1.0);
  CHECK(c.solve.method == fdsolve::SolveMethod::Auto);
}

TEST_CASE("input: solve method, multigrid settings, criterion and ranks are read and located") {
  const char* text =
      "grid: {points: [9, 9, 17]}\n"
      "solve:\n"
      "  method: multigrid\n"
      "  multigrid: {cycle: w, pre_smooth: 3, post_smooth: 1, fmg: false}\n"
      "  criterion: residual\n"
      "parallel: {ranks: [1, 2, 4], overlap: false}\n";
  const fdsolve::Case c = parse_case(text, "mg.yaml");
  CHECK(c.solve.method == fdsolve::SolveMethod::Multigrid);
  CHECK(c.solve.multigrid.cycle == fdsolve::CycleKind::W);
  CHECK(c.solve.multigrid.pre_smooth == 3);
  CHECK(c.solve.multigrid.post_smooth == 1);
  CHECK_FALSE(c.solve.multigrid.fmg);
  CHECK(c.solve.criterion == fdsolve::Criterion::Residual);
  CHECK(c.parallel.ranks == std::array<int, 3>{1, 2, 4});
  CHECK(c.locations.at("solve.method") == "mg.yaml:3:11");
  CHECK(c.locations.at("solve.multigrid.pre_smooth") == "mg.yaml:4:37");
  CHECK(c.locations.at("parallel.ranks") == "mg.yaml:6:19");
  CHECK_FALSE(c.parallel.overlap);
  CHECK(c.locations.at("parallel.overlap") == "mg.yaml:6:39");

  // Partial multigrid settings keep the other defaults; ranks: auto is all zeros.
  const fdsolve::Case d = parse_case(
      "grid: {points: [5, 5]}\nsolve: {multigrid: {post_smooth: 4}, criterion: update}\n"
      "parallel: {ranks: auto}\n",
      "d");
  CHECK(d.solve.method == fdsolve::SolveMethod::Auto);
  CHECK(d.solve.multigrid.cycle == fdsolve::CycleKind::V);
  CHECK(d.solve.multigrid.pre_smooth == 2);
  CHECK(d.solve.multigrid.post_smooth == 4);
  CHECK(d.solve.criterion == fdsolve::Criterion::Update);
  CHECK(d.parallel.ranks == std::array<int, 3>{0, 0, 0});

  // Jacobi and custom cases take method and criterion without multigrid settings.
  const fdsolve::Case j =
      parse_case("grid: {points: [5, 5]}\nsolve: {method: jacobi, criterion: residual}\n", "j");
  CHECK(j.solve.method == fdsolve::SolveMethod::Jacobi);
  CHECK(j.solve.criterion == fdsolve::Criterion::Residual);
  const fdsolve::Case k = parse_case(
      "grid: {points: [5, 5]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"
      "solve: {method: jacobi, criterion: update}\n",
      "k");
  CHECK(k.solve.method == fdsolve::SolveMethod::Jacobi);
  CHECK(k.solve.criterion == fdsolve::Criterion::Update);
}

TEST_CASE("input: implicit heat takes a dt of any size and the per-step multigrid keys") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [9, 9]}\nproblem: {equation: heat}\n"
      "time: {scheme: crank-nicolson, dt: 50, end: 100}\n"
      "solve: {method: multigrid, multigrid: {cycle: w}, max_iterations: 20, tolerance: 1e-8,\n"
      "        absolute_tolerance: 1e-12}\n",
      "cn");
  CHECK(c.time.scheme == fdsolve::TimeScheme::CrankNicolson);
  CHECK_FALSE(c.time.dt_auto);
  CHECK(c.time.dt == 50.0);
  CHECK(c.solve.method == fdsolve::SolveMethod::Multigrid);
  CHECK(c.solve.multigrid.cycle == fdsolve::CycleKind::W);
  CHECK(c.solve.max_iterations == 20);
  CHECK(c.solve.tolerance == 1e-8);
  CHECK(c.solve.absolute_tolerance == 1e-12);
  const fdsolve::Case be = parse_case("grid: {points: [5, 5]}\nproblem: {equation: heat}\n", "be",
                                      {"time.scheme=implicit", "time.dt=0.5"});
  CHECK(be.time.scheme == fdsolve::TimeScheme::Implicit);
  CHECK(be.time.dt == 0.5);
  CHECK(be.solve.method == fdsolve::SolveMethod::Auto);
  CHECK(be.locations.at("time.scheme") == "--set time.scheme=implicit");
}
