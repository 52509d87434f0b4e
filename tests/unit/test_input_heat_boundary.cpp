// Heat cases, Neumann and periodic faces, and expressions in t: the defaults they get and the
// combinations that are accepted (the refused ones are rows of test_input_errors.cpp).
#include <doctest/doctest.h>

#include "case_reader.hpp"
#include "expression.hpp"

using fdsolve::BoundaryType;
using fdsolve::parse_case;

TEST_CASE("input: a minimal heat case gets the heat defaults") {
  const fdsolve::Case c = parse_case("grid: {points: [5, 5]}\nproblem: {equation: heat}\n", "h");
  CHECK(c.problem.equation == fdsolve::Equation::Heat);
  CHECK(c.problem.diffusivity == 1.0);
  CHECK(c.problem.source.is_constant());
  CHECK(c.problem.source.constant == 0.0);
  CHECK(c.time.end == 1.0);
  CHECK(c.time.dt_auto);
  CHECK(c.time.safety == 0.9);
  CHECK(c.solve.check_every == 100);
  CHECK(c.solve.norm == fdsolve::NormKind::L2);
  CHECK(c.solve.divergence_factor == 1e6);
  CHECK(c.checkpoint.every == 0);
  for (const auto& bc : c.boundary) CHECK(bc.type == BoundaryType::Dirichlet);
}

TEST_CASE("input: heat keys are read") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\n"
      "problem: {equation: heat, diffusivity: 0.01, source: \"exp(-t)*x\"}\n"
      "time: {end: 2.5, dt: 0.001, safety: 1}\n"
      "solve: {check_every: 7, norm: linf, divergence_factor: 50}\n"
      "initial: \"sin(pi*x) + t\"\n"
      "checkpoint: {every: 20}\n",
      "h");
  CHECK(c.problem.diffusivity == 0.01);
  CHECK(c.problem.source.expression == "exp(-t)*x");
  CHECK(c.problem.source.uses_time);
  CHECK(c.initial.uses_time);
  CHECK(c.time.end == 2.5);
  CHECK_FALSE(c.time.dt_auto);
  CHECK(c.time.dt == 0.001);
  CHECK(c.time.safety == 1.0);
  CHECK(c.solve.check_every == 7);
  CHECK(c.solve.norm == fdsolve::NormKind::Linf);
  CHECK(c.solve.divergence_factor == 50.0);
  CHECK(c.checkpoint.every == 20);
  // dt: auto given explicitly, and safety beside a given dt (it is then unused), are fine.
  CHECK(parse_case("grid: {points: [5, 5]}\nproblem: {equation: heat}\ntime: {dt: auto}\n", "h")
            .time.dt_auto);
}

TEST_CASE("input: neumann faces take a gradient, 0 by default") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\n"
      "boundary:\n"
      "  x_min: {type: neumann}\n"
      "  x_max: {type: neumann, gradient: -1.5}\n"
      "  y_min: {type: neumann, gradient: \"sin(pi*x)\"}\n",
      "n");
  CHECK(c.boundary[fdsolve::XMin].type == BoundaryType::Neumann);
  CHECK(c.boundary[fdsolve::XMin].gradient.is_constant());
  CHECK(c.boundary[fdsolve::XMin].gradient.constant == 0.0);
  CHECK(c.boundary[fdsolve::XMax].gradient.constant == -1.5);
  CHECK(c.boundary[fdsolve::YMin].gradient.expression == "sin(pi*x)");
  CHECK_FALSE(c.boundary[fdsolve::YMin].gradient.uses_time);
  // y_max is not named: the plain default, a Dirichlet face, keeps the problem well posed.
  CHECK(c.boundary[fdsolve::YMax].type == BoundaryType::Dirichlet);
  CHECK(c.grid.periodic == std::array<bool, 3>{false, false, false});
}

TEST_CASE("input: a named face does not inherit the default's type") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\n"
      "boundary: {default: {type: neumann, gradient: 2}, x_min: {value: 3}}\n",
      "n");
  CHECK(c.boundary[fdsolve::XMin].type == BoundaryType::Dirichlet);
  CHECK(c.boundary[fdsolve::XMin].value.constant == 3.0);
  CHECK(c.boundary[fdsolve::YMax].type == BoundaryType::Neumann);
  CHECK(c.boundary[fdsolve::YMax].gradient.constant == 2.0);
}

TEST_CASE("input: periodic axes have spacing extent/points and a default extent of points") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [8, 5]}\n"
      "boundary: {x_min: {type: periodic}, x_max: {type: periodic}}\n",
      "p");
  CHECK(c.grid.periodic == std::array<bool, 3>{true, false, false});
  CHECK(c.boundary[fdsolve::XMin].type == BoundaryType::Periodic);
  CHECK(c.boundary[fdsolve::XMax].type == BoundaryType::Periodic);
  CHECK(c.grid.extent[0] == 8.0);  // 8 intervals of 1: node 7's right neighbour is node 0
  CHECK(c.grid.spacing(0) == 1.0);
  CHECK(c.grid.extent[1] == 4.0);
  CHECK(c.grid.spacing(1) == 1.0);

  const fdsolve::Case given = parse_case(
      "grid: {points: [8, 5], extent: [2, 1]}\n"
      "boundary: {x_min: {type: periodic}, x_max: {type: periodic}}\n",
      "p");
  CHECK(given.grid.extent[0] == 2.0);
  CHECK(given.grid.spacing(0) == 0.25);
  CHECK(given.grid.spacing(1) == 0.25);
}

TEST_CASE("input: a periodic default pairs every face; 27 points see the periodic spacing") {
  // Heat and custom need no Dirichlet face.
  const fdsolve::Case c = parse_case(
      "grid: {points: [4, 4, 4]}\nproblem: {equation: heat}\n"
      "boundary: {default: {type: periodic}}\nstencil: 27\n",
      "p3");
  CHECK(c.grid.periodic == std::array<bool, 3>{true, true, true});
  CHECK(c.grid.extent == std::array<double, 3>{4.0, 4.0, 4.0});
  CHECK(c.stencil.points == 27);
  // Equal spacing only because the periodic axes divide by points: 0.8/4 = 0.2 = 0.6/3.
  const fdsolve::Case mixed = parse_case(
      "grid: {points: [4, 4, 4], extent: [0.8, 0.8, 0.6]}\nproblem: {equation: heat}\n"
      "boundary: {default: {type: periodic}, z_min: {type: neumann}, z_max: {value: 1}}\n"
      "stencil: 19\n",
      "p3");
  CHECK(mixed.grid.periodic == std::array<bool, 3>{true, true, false});
  CHECK(mixed.stencil.points == 19);
  const fdsolve::Case custom = parse_case(
      "grid: {points: [5, 5]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0, x: 0.25, y: 0.25}}\n"
      "boundary: {default: {type: neumann, gradient: 1}}\n",
      "c");
  CHECK(custom.boundary[fdsolve::YMax].type == BoundaryType::Neumann);
}

TEST_CASE("input: steady problems accept one dirichlet face among neumann and periodic ones") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\nproblem: {equation: poisson, source: 1}\n"
      "boundary:\n  default: {type: neumann}\n  y_min: {type: dirichlet, value: 0}\n",
      "s");
  CHECK(c.boundary[fdsolve::YMin].type == BoundaryType::Dirichlet);
  CHECK(c.boundary[fdsolve::XMin].type == BoundaryType::Neumann);
}

TEST_CASE("input: uses_time marks expressions in t, for heat") {
  const fdsolve::Case c = parse_case(
      "grid: {points: [5, 5]}\nproblem: {equation: heat}\n"
      "boundary:\n  x_min: {value: \"sin(2*pi*t)\"}\n  x_max: {value: \"x*y\"}\n"
      "  y_min: {value: 3}\n  y_max: {type: neumann, gradient: \"t^2\"}\n",
      "t");
  CHECK(c.boundary[fdsolve::XMin].value.uses_time);
  CHECK_FALSE(c.boundary[fdsolve::XMax].value.uses_time);
  CHECK_FALSE(c.boundary[fdsolve::YMin].value.uses_time);
  CHECK(c.boundary[fdsolve::YMax].gradient.uses_time);
}

TEST_CASE("input: Expression::variables lists the variables the text mentions") {
  using Names = std::set<std::string>;
  CHECK(fdsolve::Expression("sin(t)").variables() == Names{"t"});
  CHECK(fdsolve::Expression("x*y + z").variables() == Names{"x", "y", "z"});
  CHECK(fdsolve::Expression("2*pi + e").variables().empty());
  CHECK(fdsolve::Expression("0*t + x").variables() == Names{"t", "x"});
  // Still evaluates after being asked.
  const fdsolve::Expression e("x + 10*t");
  CHECK(e.variables() == Names{"t", "x"});
  CHECK(e(1, 0, 0, 2) == 21.0);
}
