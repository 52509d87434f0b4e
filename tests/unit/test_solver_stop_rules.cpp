// The stops besides convergence: a stalled multigrid solve (the factor rule and the rounding
// floor against hand-computed operator scales and coefficients, where a stall counts as
// reaching it, the floor estimated before the solve), check's tolerance warning, multigrid's
// default max_iterations, solve.max_wall_time and the wall-time limit's clock, and the stagnation
// warning's wording for multigrid; solve.tolerance: discretization (its parsing, where it
// applies, and the estimates' arithmetic against hand-computed values); the tolerance,
// divergence, conjugate gradients' stall and the signal/time-limit request against hand-worked
// sequences.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "case_reader.hpp"
#include "loop/discretization_stop.hpp"
#include "loop/rounding_floor.hpp"
#include "loop/run_checks.hpp"
#include "loop/stop_rules.hpp"
#include "solve.hpp"

using namespace fdsolve;

TEST_CASE("stop rules: five cycles in a row above factor 0.9 stall; a good cycle resets") {
  StallWatch w;
  for (int i = 0; i < 4; ++i) CHECK_FALSE(w.stalled(0.95));
  CHECK_FALSE(w.stalled(0.5));  // progress: the count starts over
  for (int i = 0; i < 4; ++i) CHECK_FALSE(w.stalled(1.2));
  CHECK(w.stalled(0.91));
  StallWatch exact;
  for (int i = 0; i < 10; ++i) CHECK_FALSE(exact.stalled(0.9));  // 0.9 itself is progress
  CHECK_FALSE(exact.stalled(std::numeric_limits<double>::quiet_NaN()));
}

TEST_CASE("stop rules: the rounding floor is eps x sum|A| x |u| with sum|A| = 2 x diagonal") {
  // 5 points, h = 1/32 and 1/16: A's diagonal is 2/hx^2 + 2/hy^2, the neighbours sum as much.
  Case c = parse_case("precision: float\ngrid: {points: [33, 17], extent: [1, 1]}\n", "f.yaml");
  const double diagonal = 2.0 * 32 * 32 + 2.0 * 16 * 16;
  CHECK(operator_scale(c) == doctest::Approx(2 * diagonal).epsilon(1e-12));
  CHECK(rounding_floor(c, -3.0) ==
        doctest::Approx(std::numeric_limits<float>::epsilon() * 2 * diagonal * 3.0));
  // 7 points in 3D, h = 1/8 on every axis: diagonal 6 / h^2.
  Case d = parse_case("grid: {points: [9, 9, 9], extent: [1, 1, 1]}\nstencil: 7\n", "d.yaml");
  CHECK(operator_scale(d) == doctest::Approx(2 * 6.0 * 64).epsilon(1e-12));
  CHECK(rounding_floor(d, 1.0) ==
        doctest::Approx(std::numeric_limits<double>::epsilon() * 2 * 6.0 * 64));
  // Far above the floor: the cycles stopped converging; at it but short of a tenth of the
  // reference: float cannot resolve the case.
  const RoundingFloor floor(c);
  const std::string far = describe_stall(c, floor, {12, 0.5, 0.5, 3.0}, 1e-9);
  CHECK(far.find("multigrid stalled at cycle 12") != std::string::npos);
  CHECK(far.find("target 1.000e-09") != std::string::npos);
  CHECK(far.find("far above rounding") != std::string::npos);
  CHECK(far.find("solve.krylov: cg") != std::string::npos);
  const double at = floor.at(3.0);
  const std::string near = describe_stall(c, floor, {12, 2 * at, 2 * at, 3.0}, 1e-9);
  CHECK(near.find("2 x the float rounding floor eps x |A| x |u|") != std::string::npos);
  CHECK(near.find("precision: double") != std::string::npos);
}

TEST_CASE("stop rules: the floor's operator norm holds the coefficient's largest value") {
  // A number is in the stencil weights already; a field multiplies the unit scale by its
  // largest value (a face's harmonic mean is never above the larger node value).
  const std::string grid = "grid: {points: [33, 33], extent: [1, 1]}\n";
  const Case two = parse_case(grid + "problem: {equation: poisson, coefficient: 2}\n", "n.yaml");
  const Case one = parse_case(grid + "problem: {equation: poisson}\n", "o.yaml");
  CHECK(operator_scale(two) == doctest::Approx(2 * operator_scale(one)));
  CHECK(operator_norm(two, coefficient_range(two)) == doctest::Approx(2 * operator_scale(one)));
  const Case field = parse_case(
      grid + "problem: {equation: poisson, coefficient: \"x < 0.5 ? 1 : 1000\"}\n", "f.yaml");
  const CoefficientRange range = coefficient_range(field);
  CHECK(range.min == 1);
  CHECK(range.max == 1000);
  CHECK(operator_norm(field, range) == doctest::Approx(1000 * operator_scale(one)));
  const RoundingFloor floor(field);
  CHECK(floor.at(-0.5) ==
        doctest::Approx(std::numeric_limits<double>::epsilon() * 1000 * operator_scale(one) * 0.5));
  CHECK(rounding_floor(field, 0.5) == doctest::Approx(floor.at(0.5)));
}

TEST_CASE(
    "stop rules: a stalled residual has reached the floor within a factor 10 of it, "
    "once it is below a tenth of its reference") {
  const Case c = parse_case("grid: {points: [33, 33], extent: [1, 1]}\n", "r.yaml");
  const RoundingFloor floor(c);
  const double at = floor.at(1.0);
  CHECK(floor.reached(at, 1.0, at, 1.0));
  CHECK(floor.reached(kFloorBand * at, 1.0, at, 1.0));
  CHECK_FALSE(floor.reached(1.01 * kFloorBand * at, 1.0, at, 1.0));  // far above it
  CHECK_FALSE(floor.reached(at, 1.0, 0.2, 1.0));                     // not a tenth of 1
  CHECK(floor.reached(at, 1.0, 0.1, 1.0));
  CHECK_FALSE(floor.reached(0.0, 0.0, 0.0, 1.0));  // u = 0: no floor
  const std::string text = describe_floor_convergence(c, floor, 9, {9, 0.1 * at, at, 1.0}, 1e-20);
  CHECK(text.find("converged at the rounding floor at iteration 9") != std::string::npos);
  CHECK(text.find("1 x the floor eps x |A| x |u|") != std::string::npos);
  CHECK(text.find("its best") == std::string::npos);
  const std::string best = describe_floor_convergence(c, floor, 12, {9, 0.1 * at, at, 1.0}, 1e-20);
  CHECK(best.find("at iteration 12") != std::string::npos);
  CHECK(best.find("(its best, at iteration 9)") != std::string::npos);
}

TEST_CASE(
    "stop rules: the floor estimated before the solve is eps x contrast x the operator's "
    "condition with a source, eps x contrast x 2 dims x sqrt(n) without") {
  // 5 points, h = 1/32 on the unit square with Dirichlet faces: |A| = 8 / h^2, lowest
  // eigenvalue 2 pi^2.
  const std::string grid = "grid: {points: [33, 33], extent: [1, 1]}\n";
  const std::string poisson = "problem: {equation: poisson, source: 1}\n";
  const double eps = std::numeric_limits<double>::epsilon();
  const Case c = parse_case(grid + poisson, "e.yaml");
  const double pi = 3.14159265358979323846;
  const double condition = 8.0 * 32 * 32 / (2 * pi * pi);
  CHECK(relative_floor_estimate(c, 1.0) == doctest::Approx(eps * condition));
  CHECK(relative_floor_estimate(c, 1e6) == doctest::Approx(eps * 1e6 * condition));
  // A Neumann face halves the lowest mode's wavenumber along its axis.
  const Case n =
      parse_case(grid + poisson + "boundary: {x_min: {type: neumann, gradient: 0}}\n", "n.yaml");
  CHECK(relative_floor_estimate(n, 1.0) ==
        doctest::Approx(eps * 8.0 * 32 * 32 / (pi * pi / 4 + pi * pi)));
  // The coefficient's number scales |A| and the eigenvalue alike.
  const Case k =
      parse_case(grid + "problem: {equation: poisson, source: 1, coefficient: 7}\n", "k.yaml");
  CHECK(relative_floor_estimate(k, 1.0) == doctest::Approx(relative_floor_estimate(c, 1.0)));
  // Boundary data alone: laplace, or a source of 0.
  const Case l = parse_case(grid + "problem: {equation: laplace}\n", "l.yaml");
  CHECK(relative_floor_estimate(l, 10.0) == doctest::Approx(eps * 10 * 4 * std::sqrt(33.0)));
  const Case z = parse_case(grid + "problem: {equation: poisson, source: 0}\n", "z.yaml");
  CHECK(relative_floor_estimate(z, 1.0) == doctest::Approx(relative_floor_estimate(l, 1.0)));
}

TEST_CASE(
    "stop rules: the tolerance warning is for multigrid tolerances below the estimated "
    "floor") {
  const CoefficientRange unit;
  // Poisson with a source on 33x33 (spacing 1), in float or double, at `tolerance`.
  const auto poisson = [](bool single, const std::string& tolerance) {
    return parse_case(std::string(single ? "precision: float\n" : "") +
                          "grid: {points: [33, 33]}\nproblem: {equation: poisson, source: 1}\n"
                          "solve: {tolerance: " +
                          tolerance + "}\n",
                      "p.yaml");
  };
  const Case f = poisson(true, "1e-12");
  CHECK(tolerance_warning(f, true, unit).find("precision: double") != std::string::npos);
  CHECK(tolerance_warning(f, false, unit).empty());  // Jacobi: the stagnation warning covers it
  const Case d = poisson(false, "1e-8");
  CHECK(tolerance_warning(d, true, unit).empty());
  // The estimate on 33x33 is eps x 415 = 9.2e-14: 1e-13 is above it, 1e-14 below; a contrast
  // of 1e6 lifts it above 1e-8.
  CHECK(tolerance_warning(poisson(false, "1e-13"), true, unit).empty());
  CHECK(tolerance_warning(poisson(false, "1e-14"), true, unit)
            .find("lies below the estimated rounding floor") != std::string::npos);
  CHECK(tolerance_warning(d, true, {1.0, 1e6}).find("at_rounding_floor") != std::string::npos);
  // Float at a contrast whose floor lies near the reference itself cannot resolve the case.
  CHECK(tolerance_warning(poisson(true, "1e-8"), true, {1.0, 1e4}).find("cannot resolve") !=
        std::string::npos);
  // Boundary data alone lie lower: laplace on 33x33 at eps x 4 x sqrt(33) = 5.1e-15.
  const Case l = parse_case("grid: {points: [33, 33]}\nsolve: {tolerance: 1e-14}\n", "l.yaml");
  CHECK(tolerance_warning(l, true, unit).empty());
}

TEST_CASE("method defaults: Chebyshev smoothing is refused where the flux form's cycles run") {
  const std::string base =
      "grid: {points: [33, 33]}\nsolve: {method: multigrid, multigrid: "
      "{smoother: chebyshev}}\n";
  Case constant = parse_case(base, "c.yaml");
  CHECK_NOTHROW(resolve_method_defaults(constant));
  Case field = parse_case(base + "problem: {equation: poisson, coefficient: '1 + x'}\n", "f.yaml");
  try {
    resolve_method_defaults(field);
    FAIL("a coefficient field with smoother: chebyshev was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("solve.multigrid.smoother: chebyshev applies to the "
                                     "constant stencil") != std::string::npos);
  }
  Case automatic = parse_case(
      "grid: {points: [33, 33]}\nsolve: {method: multigrid}\n"
      "problem: {equation: poisson, coefficient: '1 + x'}\n",
      "a.yaml");
  CHECK_NOTHROW(resolve_method_defaults(automatic));
}

TEST_CASE("stop rules: multigrid takes 100 cycles unless max_iterations is set; Jacobi 1000000") {
  Case mg = parse_case("grid: {points: [33, 33]}\nsolve: {method: multigrid}\n", "m.yaml");
  resolve_method_defaults(mg);
  CHECK(mg.solve.max_iterations == kMultigridDefaultCycles);
  Case set = parse_case("grid: {points: [33, 33]}\nsolve: {method: multigrid}\n", "m.yaml",
                        {"solve.max_iterations=1000000"});
  resolve_method_defaults(set);
  CHECK(set.solve.max_iterations == 1000000);
  Case jacobi = parse_case("grid: {points: [33, 33]}\nsolve: {method: jacobi}\n", "j.yaml");
  resolve_method_defaults(jacobi);
  CHECK(jacobi.solve.max_iterations == 1000000);
  // The resolved value reads back as set: the resolved case keeps it.
  Case again = parse_case(to_yaml(mg), "again.yaml");
  resolve_method_defaults(again);
  CHECK(again.solve.max_iterations == kMultigridDefaultCycles);
}

TEST_CASE("stop rules: solve.max_wall_time is a number >= 0 for every equation") {
  const Case c = parse_case("grid: {points: [9, 9]}\nsolve: {max_wall_time: 2.5}\n", "w.yaml");
  CHECK(c.solve.max_wall_time == 2.5);
  const Case heat = parse_case(
      "grid: {points: [9, 9]}\nproblem: {equation: heat}\ntime: {end: 0.1}\n"
      "solve: {max_wall_time: 60}\n",
      "h.yaml");
  CHECK(heat.solve.max_wall_time == 60);
  CHECK(parse_case(to_yaml(heat), "again.yaml").solve == heat.solve);
  CHECK_THROWS_WITH_AS(parse_case("grid: {points: [9, 9]}\nsolve: {max_wall_time: -1}\n", "n.yaml"),
                       "n.yaml:2:24: solve.max_wall_time: must be at least 0, got -1", InputError);
  CHECK_FALSE(WallLimit(0).reached());
  const WallLimit soon(0.01);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(soon.reached());
  CHECK_FALSE(WallLimit(3600).reached());
}

TEST_CASE("stop rules: multigrid's stagnation warning names the rounding floor, not Jacobi") {
  Case c = parse_case("grid: {points: [33, 33]}\nsolve: {stagnation_checks: 3}\n", "s.yaml");
  StagnationWatch watch(c, true);
  std::vector<output::HistoryRow> rows;
  for (int i = 0; i < 5; ++i) {
    output::HistoryRow r;
    r.iteration = i;
    r.norm_l2 = 1e-3;
    r.max = 2.0;
    rows.push_back(r);
  }
  const std::string text = watch.check(rows, 1e-9);
  CHECK(text.find("Multigrid cycles") != std::string::npos);
  CHECK(text.find("Jacobi") == std::string::npos);
  CHECK(text.find("more iterations") == std::string::npos);
}

TEST_CASE("stop rules: solve.tolerance: discretization parses, reads back and needs multigrid") {
  const std::string grid = "grid: {points: [33, 33]}\n";
  Case c = parse_case(grid + "solve: {tolerance: discretization}\n", "d.yaml");
  CHECK(c.solve.tolerance_discretization);
  CHECK(c.solve.tolerance == 0);
  resolve_method_defaults(c);  // auto: multigrid with full multigrid
  const Case again = parse_case(to_yaml(c), "again.yaml");
  CHECK(again.solve.tolerance_discretization);
  CHECK_FALSE(
      parse_case(grid + "solve: {tolerance: 1e-8}\n", "n.yaml").solve.tolerance_discretization);

  const auto refused = [&](const std::string& text, const std::string& says) {
    Case k = parse_case(text.starts_with("grid") ? text : grid + text, "r.yaml");
    try {
      resolve_method_defaults(k);
      FAIL("accepted: " << text);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(says) != std::string::npos);
    }
  };
  refused("solve: {method: jacobi, tolerance: discretization}\n", "runs Jacobi");
  refused("grid: {points: [34, 33]}\nsolve: {tolerance: discretization}\n",
          "the x axis has 33 intervals");
  CHECK_THROWS_WITH_AS(parse_case(grid + "solve: {tolerance: discretisation}\n", "t.yaml"),
                       doctest::Contains("expected a number or discretization"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_case(grid + "problem: {equation: heat}\ntime: {scheme: implicit, "
                        "dt: 0.01, end: 0.1}\nsolve: {tolerance: discretization}\n",
                 "h.yaml"),
      doctest::Contains("steady solves by multigrid"), InputError);
}

TEST_CASE(
    "stop rules: the algebraic error is the change times rho / (1 - rho), stopped at a "
    "tenth of the discretization error") {
  DiscretizationStop d;
  CHECK_FALSE(d.reached());
  d.set_discretization(1e-4);
  CHECK(d.discretization() == 1e-4);
  d.cycle_change(1e-4, 0.5);  // rho 0.5: the error left equals the change
  CHECK(d.algebraic() == doctest::Approx(1e-4));
  CHECK_FALSE(d.reached());
  d.cycle_change(1e-5, 0.02);  // a factor below 0.1 counts as 0.1: 1e-5 / 9
  CHECK(d.algebraic() == doctest::Approx(1e-5 / 9));
  CHECK(d.reached());         // 1.1e-6 <= 0.1 x 1e-4
  d.cycle_change(1e-5, 1.5);  // a cycle that did not contract: no bound
  CHECK_FALSE(d.reached());
}

TEST_CASE("stop rules: the tolerance's target is max(absolute, relative x first norm)") {
  const Case c = parse_case(
      "grid: {points: [9, 9]}\nsolve: {tolerance: 1e-3, absolute_tolerance: 1e-6}\n", "t.yaml");
  ToleranceStop t(c, 0.0);  // no first norm yet: the absolute tolerance alone
  CHECK(t.target() == 1e-6);
  CHECK_FALSE(t.reached(2e-6));
  t.set_reference(4.0);  // 1e-3 x 4 = 4e-3 > 1e-6
  CHECK(t.target() == doctest::Approx(4e-3));
  CHECK(t.reached(4e-3 * (1 - 1e-12)));
  CHECK_FALSE(t.reached(4.1e-3));
  t.set_reference(1e-4);  // 1e-7 < 1e-6: the absolute tolerance again
  CHECK(t.target() == 1e-6);
  CHECK(t.reached(1e-6));  // at the target is converged
}

TEST_CASE("stop rules: divergence is a norm above factor x reference or a non-finite value") {
  const Case c = parse_case("grid: {points: [9, 9]}\nsolve: {divergence_factor: 100}\n", "d.yaml");
  const DivergenceStop d(c);
  CHECK(d.limit(0.5) == 50.0);
  SweepStats s;
  s.sum = 1.0;
  CHECK_FALSE(d.diverged(50.0, 0.5, s, nullptr));  // at the limit: not yet
  CHECK(d.diverged(50.5, 0.5, s, nullptr));
  CHECK(d.diverged(std::numeric_limits<double>::quiet_NaN(), 0.5, s, nullptr));
  CHECK(d.diverged(std::numeric_limits<double>::infinity(), 0.5, s, nullptr));
  s.sum = std::numeric_limits<double>::infinity();  // the values overflow, the norm does not
  CHECK(d.diverged(1.0, 0.5, s, nullptr));
  s.sum = 1.0;
  Diagnostics g;
  g.nonfinite = 1;  // a NaN node the norm did not see
  CHECK(d.diverged(1.0, 0.5, s, &g));
  g.nonfinite = 0;
  CHECK_FALSE(d.diverged(1.0, 0.5, s, &g));
}

TEST_CASE(
    "stop rules: conjugate gradients stall after 25 iterations without a 0.9 fall of "
    "their best residual, or after 2 at the rounding floor") {
  int asked = 0;
  const auto check = [](double norm) { return ResidualCheck{0, norm, norm, 1.0}; };
  const auto never = [&](const ResidualCheck&) {
    ++asked;
    return false;
  };
  KrylovStall k;
  CHECK_FALSE(k.stalled(check(1.0), never));   // the first norm is the best
  CHECK_FALSE(k.stalled(check(0.95), never));  // not below 0.9: one without progress
  CHECK(asked == 0);                           // the floor is asked from the second on
  CHECK_FALSE(k.stalled(check(1.5), never));   // a rise: two
  CHECK(asked == 1);
  CHECK_FALSE(k.stalled(check(0.85), never));  // below 0.9 x 1: a new best, the count starts over
  CHECK(k.best() == 0.85);
  CHECK(k.since() == 0);
  for (int i = 1; i <= 24; ++i)
    CHECK_FALSE(k.stalled(check(0.8), never));  // 0.8 > 0.9 x 0.85 = 0.765
  CHECK(k.since() == 24);
  const int before = asked;
  CHECK(k.stalled(check(0.8), never));  // the 25th: stalled without asking the floor
  CHECK(asked == before);
  CHECK(k.since() == 25);

  KrylovStall floor;
  const auto yes = [](const ResidualCheck&) { return true; };
  CHECK_FALSE(floor.stalled(check(1.0), yes));
  CHECK_FALSE(floor.stalled(check(1.0), yes));  // one: not asked yet
  CHECK(floor.stalled(check(1.0), yes));        // two, and at the floor

  // The floor is asked of the best check, whose max norm may lie in the band when the latest
  // one's has wandered above it.
  KrylovStall wander;
  std::int64_t asked_of = -1;
  const auto best_in_band = [&](const ResidualCheck& best) {
    asked_of = best.iteration;
    return best.linf <= 1e-3;
  };
  CHECK_FALSE(wander.stalled({16, 2.0e-6, 1.4e-4, 1.0}, best_in_band));
  CHECK_FALSE(wander.stalled({17, 9.4e-6, 4.7e-4, 1.0}, best_in_band));
  CHECK(wander.stalled({18, 2.5e-6, 2.3e-3, 1.0}, best_in_band));
  CHECK(asked_of == 16);
  CHECK(wander.best_check().linf == 1.4e-4);

  const Case c = parse_case("precision: float\ngrid: {points: [9, 9]}\n", "k.yaml");
  const RoundingFloor at(c);
  const std::string text = describe_krylov_stall(c, at, {31, 0.8, 0.8, 1.0}, k, 1e-7);
  CHECK(text.find("stalled at iteration 31") != std::string::npos);
  CHECK(text.find("best 8.500e-01 for 25 iterations") != std::string::npos);
  CHECK(text.find("far above rounding") != std::string::npos);
  const std::string near = describe_krylov_stall(c, at, {31, 0.8, at.at(1.0), 1.0}, k, 1e-7);
  CHECK(near.find("use precision: double") != std::string::npos);
}

TEST_CASE("stop rules: a signal outranks the wall-time limit; no limit and no signal is none") {
  std::atomic<bool> signal{false};
  const StopRequest none(&signal, 0);
  CHECK(none.code() == StopRequest::kNone);
  CHECK(StopRequest(nullptr, 0).code() == StopRequest::kNone);
  const StopRequest timed(&signal, 1e-3);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(timed.code() == StopRequest::kTimeLimit);
  signal = true;
  CHECK(none.code() == StopRequest::kSignal);
  CHECK(timed.code() == StopRequest::kSignal);
  CHECK(StopRequest::kSignal > StopRequest::kTimeLimit);  // the ranks' maximum picks the signal
  CHECK(StopRequest::status(StopRequest::kSignal) == SolveStatus::Interrupted);
  CHECK(StopRequest::status(StopRequest::kTimeLimit) == SolveStatus::TimeLimit);
}
