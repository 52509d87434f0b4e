// Robin faces (-beta du/dn = h (u - ambient)) on the backend under test (CPU here, CUDA in the
// GPU executable): the exact linear slab profile, manufactured solutions at second order in 2D
// and 3D (constant and varying coefficient, explicit heat with an ambient in t), h = 0 as the
// bits of a Neumann face with gradient 0, multigrid's convergence factor against the same case
// with Dirichlet faces, explicit heat at dt: auto and at the stability limit, and the balance
// columns' conservation identities.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "loop/stability.hpp"
#include "solve_support.hpp"

namespace fdsolve::test {
namespace {

TEST_SUITE_BEGIN("problems");

/// -(beta u')' = 0 on [0, 1], u(0) = 1, Robin at x = 1: u = 1 + s x with
/// -beta s = h (1 + s - ambient). The scheme is exact for a linear u (its ghost is a central
/// difference), so the discrete solution is this line to rounding.
std::string slab_case(int dims, const std::string& method, double beta, double h, double ambient) {
  const std::string points = dims == 2 ? "[33, 9]" : "[17, 9, 9]";
  const std::string extent = dims == 2 ? "[1, 0.5]" : "[1, 0.5, 0.5]";
  return fmt::format(
      "grid: {{points: {}, extent: {}}}\nproblem: {{equation: laplace, coefficient: {}}}\n"
      "boundary:\n  default: {{type: neumann, gradient: 0}}\n  x_min: {{type: dirichlet, value: "
      "1}}\n  x_max: {{type: robin, h: {}, ambient: {}}}\nsolve: {{method: {}, tolerance: "
      "1.0e-13, max_iterations: {}, check_every: 500}}\n",
      points, extent, beta, h, ambient, method, method == "jacobi" ? 200000 : 100);
}

PROBLEM_TEST("robin: a slab with a convective face gives the exact linear profile") {
  const double beta = 2.0, h = 3.0, ambient = 0.25;
  const double slope = -h * (1.0 - ambient) / (beta + h);
  for (int dims : {2, 3})
    for (const char* method : {"multigrid", "jacobi"}) {
      CAPTURE(dims);
      CAPTURE(method);
      const Solved s = solve_text<double>(slab_case(dims, method, beta, h, ambient), {}, true);
      CHECK(s.result.status == SolveStatus::Converged);
      const double err =
          max_error(s, [&](double x, double, double) { return 1.0 + slope * x; });
      CHECK(err < 1e-9);
    }
}

/// u = sin(x + 0.5) cos(y) (2D) or times exp(z) (3D) on the unit square or cube, beta = 1 or
/// 1 + 0.5 x y (+ 0.25 z): f = -div(beta grad u), x_min Dirichlet, every other face Robin with
/// h = 2 and the ambient that makes u exact: ambient = u + (beta / h) du/dn.
struct Manufactured {
  int dims;
  bool varying;
  std::string u() const {
    return dims == 2 ? "sin(x+0.5)*cos(y)" : "sin(x+0.5)*cos(y)*exp(z)";
  }
  std::string beta() const {
    if (!varying) return "1";
    return dims == 2 ? "(1+0.5*x*y)" : "(1+0.5*x*y+0.25*z)";
  }
  std::string ux() const { return dims == 2 ? "cos(x+0.5)*cos(y)" : "cos(x+0.5)*cos(y)*exp(z)"; }
  std::string uy() const {
    return dims == 2 ? "(-sin(x+0.5)*sin(y))" : "(-sin(x+0.5)*sin(y)*exp(z))";
  }
  std::string uz() const { return u(); }
  std::string source() const {
    // -div(beta grad u) = -(grad beta . grad u) - beta lap u; lap u = -2u (2D), -u (3D).
    const std::string lap_factor = dims == 2 ? "2" : "1";
    if (!varying) return lap_factor + "*" + u();
    std::string grad = "0.5*y*" + ux() + "+0.5*x*" + uy();
    if (dims == 3) grad += "+0.25*" + uz();
    return "-(" + grad + ")+" + lap_factor + "*" + beta() + "*" + u();
  }
  std::string ambient(const std::string& du_dn) const {
    return u() + "+" + beta() + "/2*(" + du_dn + ")";
  }
  std::string text(int n) const {
    const std::string points =
        dims == 2 ? fmt::format("[{}, {}]", n, n) : fmt::format("[{}, {}, {}]", n, n, n);
    std::string faces = fmt::format(
        "  x_min: {{type: dirichlet, value: \"{}\"}}\n"
        "  x_max: {{type: robin, h: 2, ambient: \"{}\"}}\n"
        "  y_min: {{type: robin, h: 2, ambient: \"{}\"}}\n"
        "  y_max: {{type: robin, h: 2, ambient: \"{}\"}}\n",
        u(), ambient(ux()), ambient("-" + uy()), ambient(uy()));
    if (dims == 3)
      faces += fmt::format(
          "  z_min: {{type: robin, h: 2, ambient: \"{}\"}}\n"
          "  z_max: {{type: robin, h: 2, ambient: \"{}\"}}\n",
          ambient("-" + uz()), ambient(uz()));
    return fmt::format(
        "grid: {{points: {}, extent: {}}}\nproblem: {{equation: poisson, source: \"{}\", "
        "coefficient: \"{}\"}}\nboundary:\n{}solve: {{method: multigrid, tolerance: 1.0e-13, "
        "max_iterations: 200}}\n",
        points, dims == 2 ? "[1, 1]" : "[1, 1, 1]", source(), beta(), faces);
  }
};

/// Max and l2 (root mean square) errors against `exact` over every node.
template <typename Exact>
std::pair<double, double> errors(const Solved& s, Exact exact) {
  double worst = 0, sum = 0;
  std::size_t n = 0;
  s.for_each_node([&](auto, auto, auto, double x, double y, double z, double v) {
    const double e = std::fabs(v - exact(x, y, z));
    worst = std::max(worst, e);
    sum += e * e;
    ++n;
  });
  return {worst, std::sqrt(sum / static_cast<double>(n))};
}

/// Checks observed orders log2(e_coarse / e_fine) of both norms over successive refinements.
void check_orders(const std::vector<std::pair<double, double>>& e) {
  for (std::size_t r = 1; r < e.size(); ++r) {
    const double max_order = std::log2(e[r - 1].first / e[r].first);
    const double l2_order = std::log2(e[r - 1].second / e[r].second);
    MESSAGE(fmt::format("observed order: max {:.3f}, l2 {:.3f} (max error {:.3e})", max_order,
                        l2_order, e[r].first));
    CAPTURE(r);
    CAPTURE(e[r].first);
    CHECK(std::fabs(max_order - 2.0) <= 0.1);
    CHECK(std::fabs(l2_order - 2.0) <= 0.1);
  }
}

PROBLEM_TEST("robin: manufactured Poisson solutions converge at second order in 2D and 3D") {
  for (int dims : {2, 3})
    for (bool varying : {false, true}) {
      CAPTURE(dims);
      CAPTURE(varying);
      const Manufactured m{dims, varying};
      const std::vector<int> sizes = dims == 2 ? std::vector<int>{33, 65, 129}
                                               : std::vector<int>{9, 17, 33};
      std::vector<std::pair<double, double>> e;
      for (int n : sizes) {
        const Solved s = solve_text<double>(m.text(n), {}, true);
        CHECK(s.result.status == SolveStatus::Converged);
        e.push_back(errors(s, [&](double x, double y, double z) {
          return std::sin(x + 0.5) * std::cos(y) * (dims == 3 ? std::exp(z) : 1.0);
        }));
      }
      check_orders(e);
    }
}

PROBLEM_TEST("robin: explicit heat with a time-dependent ambient converges at second order") {
  // u = exp(-t) sin(x + 0.5) cos(y) (2D; times exp(z) in 3D), k = 1: q = u_t - lap u = u (2D),
  // 0 (3D); Robin faces with the ambient of u at each step's time, dt: auto (proportional to
  // h^2).
  for (int dims : {2, 3}) {
    CAPTURE(dims);
    const std::string z = dims == 3 ? "*exp(z)" : "";
    const std::string u = "exp(-t)*sin(x+0.5)*cos(y)" + z;
    const std::string ux = "exp(-t)*cos(x+0.5)*cos(y)" + z;
    const std::string uy = "(-exp(-t)*sin(x+0.5)*sin(y)" + z + ")";
    const auto ambient = [&](const std::string& du_dn) { return u + "+0.5*(" + du_dn + ")"; };
    std::vector<std::pair<double, double>> e;
    // 3D from 13 nodes: at 9 the l2 order is still 2.11.
    const std::vector<int> sizes = dims == 2 ? std::vector<int>{17, 33, 65}
                                             : std::vector<int>{13, 25, 49};
    for (int n : sizes) {
      std::string faces = fmt::format(
          "  x_min: {{type: dirichlet, value: \"{}\"}}\n"
          "  x_max: {{type: robin, h: 2, ambient: \"{}\"}}\n"
          "  y_min: {{type: robin, h: 2, ambient: \"{}\"}}\n"
          "  y_max: {{type: robin, h: 2, ambient: \"{}\"}}\n",
          u, ambient(ux), ambient("-" + uy), ambient(uy));
      if (dims == 3)
        faces += fmt::format(
            "  z_min: {{type: robin, h: 2, ambient: \"{}\"}}\n"
            "  z_max: {{type: robin, h: 2, ambient: \"{}\"}}\n",
            ambient("-" + u), ambient(u));
      const std::string points =
          dims == 2 ? fmt::format("[{}, {}]", n, n) : fmt::format("[{}, {}, {}]", n, n, n);
      const std::string text = fmt::format(
          "grid: {{points: {}, extent: {}}}\nproblem: {{equation: heat, source: \"{}\"}}\n"
          "initial: \"sin(x+0.5)*cos(y){}\"\nboundary:\n{}time: {{end: 0.05}}\n"
          "solve: {{check_every: 1000}}\n",
          points, dims == 2 ? "[1, 1]" : "[1, 1, 1]", dims == 2 ? u : "0", z, faces);
      const Solved s = solve_text<double>(text, {}, true);
      CHECK(s.result.status == SolveStatus::Completed);
      const double t = s.final.info.time;
      CHECK(t == doctest::Approx(0.05));
      e.push_back(errors(s, [&](double x, double y, double zz) {
        return std::exp(-t) * std::sin(x + 0.5) * std::cos(y) * (dims == 3 ? std::exp(zz) : 1.0);
      }));
    }
    check_orders(e);
  }
}

PROBLEM_TEST("robin: implicit heat steps settle on the slab's exact profile") {
  // The slab of the first test as heat (k = 2) from u = 1: backward Euler and Crank-Nicolson
  // steps reach the steady linear profile, the face term scaled by each step's dt.
  const double k = 2.0, h = 3.0, ambient = 0.25;
  const double slope = -h * (1.0 - ambient) / (k + h);
  for (const char* scheme : {"implicit", "crank-nicolson"})
    for (int dims : {2, 3}) {
      CAPTURE(scheme);
      CAPTURE(dims);
      const std::string text = fmt::format(
          "grid: {{points: {}, extent: {}}}\nproblem: {{equation: heat, diffusivity: {}}}\n"
          "initial: 1\nboundary:\n  default: {{type: neumann, gradient: 0}}\n  x_min: {{type: "
          "dirichlet, value: 1}}\n  x_max: {{type: robin, h: {}, ambient: {}}}\n"
          "time: {{scheme: {}, dt: 0.05, end: 12}}\nsolve: {{tolerance: 1.0e-12, check_every: 100}}\n",
          dims == 2 ? "[33, 9]" : "[17, 9, 9]", dims == 2 ? "[1, 0.5]" : "[1, 0.5, 0.5]", k, h,
          ambient, scheme);
      const Solved s = solve_text<double>(text, {}, true);
      CHECK(s.result.status == SolveStatus::Completed);
      // Crank-Nicolson's highest modes decay as ((1 - r) / (1 + r))^steps, r = dt / limit >> 1:
      // what its start leaves of them is still there at 1e-8.
      const double tolerance = std::string(scheme) == "implicit" ? 1e-9 : 1e-6;
      CHECK(max_error(s, [&](double x, double, double) { return 1.0 + slope * x; }) < tolerance);
    }
}

/// A case on the flux path (a varying coefficient) whose x_max face is `face`.
std::string flux_case(const std::string& face, const std::string& method) {
  return fmt::format(
      "grid: {{points: [33, 25], extent: [1, 0.75]}}\nproblem: {{equation: poisson, source: "
      "\"1 + x*y\", coefficient: \"1 + 0.5*sin(3*x)*cos(2*y)\"}}\nboundary:\n  default: {{type: "
      "neumann, gradient: 0}}\n  x_min: {{type: dirichlet, value: 0}}\n  x_max: {}\n"
      "solve: {{method: {}, tolerance: 1.0e-10, max_iterations: {}, check_every: 50}}\n",
      face, method, method == "jacobi" ? 400 : 30);
}

PROBLEM_TEST("robin: h = 0 gives the bits of a Neumann face with gradient 0") {
  for (const char* method : {"multigrid", "jacobi"}) {
    CAPTURE(method);
    const Solved robin = solve_text<double>(
        flux_case("{type: robin, h: 0, ambient: 3}", method), {}, true);
    const Solved neumann = solve_text<double>(
        flux_case("{type: neumann, gradient: 0}", method), {}, true);
    CHECK(robin.result.iterations == neumann.result.iterations);
    REQUIRE(robin.u().size() == neumann.u().size());
    CHECK(std::memcmp(robin.u().data(), neumann.u().data(), robin.u().size() * sizeof(double)) ==
          0);
    // And h > 0 changes the solution (the comparison can fail).
    const Solved cooled = solve_text<double>(
        flux_case("{type: robin, h: 1, ambient: 3}", method), {}, true);
    CHECK(std::memcmp(cooled.u().data(), neumann.u().data(), cooled.u().size() * sizeof(double)) !=
          0);
  }
}

/// The mean convergence factor of stationary multigrid cycles (no CG) over the history.
double cycle_factor(const Solved& s) {
  const auto& h = s.history;
  REQUIRE(h.size() >= 4);
  // From the second row: the first cycle's factor depends on the start.
  const double first = h[1].norm_l2, last = h.back().norm_l2;
  return std::pow(last / first, 1.0 / static_cast<double>(h.back().iteration - h[1].iteration));
}

std::string factor_case(int n, const std::string& faces) {
  return fmt::format(
      "grid: {{points: [{}, {}], extent: [1, 1]}}\nproblem: {{equation: poisson, source: "
      "\"1 + x*y\", coefficient: \"1 + 0.5*sin(3*x)*cos(2*y)\"}}\nboundary:\n  x_min: {{type: "
      "dirichlet, value: 0}}\n{}solve: {{method: multigrid, krylov: none, tolerance: 1.0e-11, "
      "max_iterations: 60, check_every: 1}}\n",
      n, n, faces);
}

PROBLEM_TEST("robin: multigrid converges as fast with Robin faces as with Dirichlet faces") {
  // 65: nested levels (Galerkin coarse operators); 61: non-nested levels (averaged faces, the
  // Robin term re-discretised on each).
  for (int n : {65, 61}) {
    CAPTURE(n);
    const Solved robin = solve_text<double>(
        factor_case(n, "  default: {type: robin, h: 5, ambient: 1}\n"), {}, true);
    const Solved dirichlet = solve_text<double>(
        factor_case(n, "  default: {type: dirichlet, value: 1}\n"), {}, true);
    CHECK(robin.result.status == SolveStatus::Converged);
    CHECK(dirichlet.result.status == SolveStatus::Converged);
    const double fr = cycle_factor(robin), fd = cycle_factor(dirichlet);
    MESSAGE(fmt::format("{}: convergence factor robin {:.4f}, dirichlet {:.4f}", n, fr, fd));
    CAPTURE(fr);
    CAPTURE(fd);
    CHECK(fr < 0.5);
    CHECK(fr <= 1.1 * fd);
  }
}

std::string cooling_case(const std::string& dt, int points) {
  return fmt::format(
      "grid: {{points: [{}, {}], extent: [1, 1]}}\nproblem: {{equation: heat, diffusivity: "
      "\"1 + 0.5*x\"}}\ninitial: 1\nboundary:\n  default: {{type: robin, h: 1000, ambient: 0.2}}\n"
      "time: {{end: 0.004, dt: {}}}\nsolve: {{check_every: 1}}\n",
      points, points, dt);
}

PROBLEM_TEST("robin: explicit heat at dt auto and at the limit cools monotonically to ambient") {
  const int n = 17;
  const Case probe = parse_case(cooling_case("auto", n), "t.yaml");
  const double limit = heat_stability_limit(probe);
  // The face term dominates the limit at this h: 2 h / h_a = 32000 against the faces' k / h^2.
  CHECK(limit < 1.0 / (2.0 * 1000.0 / (1.0 / (n - 1))));
  for (const std::string dt : {std::string("auto"), fmt::format("{:.17g}", limit)}) {
    CAPTURE(dt);
    const Solved s = solve_text<double>(cooling_case(dt, n), {}, true);
    CHECK(s.result.status == SolveStatus::Completed);
    REQUIRE(s.history.size() > 10);
    bool monotone = true, bounded = true;
    for (std::size_t r = 1; r < s.history.size(); ++r) {
      monotone = monotone && s.history[r].max <= s.history[r - 1].max + 1e-15;
      bounded = bounded && s.history[r].min >= 0.2 - 1e-12 && s.history[r].max <= 1.0 + 1e-12;
    }
    CHECK(monotone);
    CHECK(bounded);
    CHECK(s.history.back().max < s.history.front().max);
  }
}

PROBLEM_TEST("robin: the balance columns keep the conservation identities") {
  // Steady: the face fluxes (the Robin ones h (u - ambient)) sum to the integral of f.
  const Solved steady = solve_text<double>(
      "grid: {points: [33, 33], extent: [1, 1]}\nproblem: {equation: poisson, source: \"1 + "
      "x\", coefficient: \"1 + 0.5*x*y\"}\nboundary:\n  default: {type: robin, h: 4, ambient: "
      "\"0.5*y\"}\n  x_min: {type: dirichlet, value: 0}\nsolve: {method: multigrid, tolerance: "
      "1.0e-13}\n",
      {}, true);
  REQUIRE(!steady.history.empty());
  const std::vector<double>& b = steady.history.back().balance;
  REQUIRE(b.size() >= 5);
  double out = 0;
  for (int f = 0; f < 4; ++f) out += b[1 + f];
  // The integral of 1 + x over the unit square: 1.5 (the trapezoid rule is exact for it).
  CHECK(out == doctest::Approx(1.5).epsilon(1e-9));
  CHECK(b[2] != 0.0);  // the Robin faces carry a flux

  // Heat: integral_(n+1) - integral_n = dt (integral of q - the outflow at step n's u).
  const Solved heat = solve_text<double>(
      "grid: {points: [25, 25], extent: [1, 1]}\nproblem: {equation: heat, source: 2, "
      "diffusivity: \"1 + 0.5*y\"}\ninitial: \"x*y\"\nboundary:\n  default: {type: robin, h: 3, "
      "ambient: \"0.1*t\"}\n  x_min: {type: neumann, gradient: 0}\ntime: {end: 0.01}\nsolve: "
      "{check_every: 1}\n",
      {}, true);
  const auto& rows = heat.history;
  REQUIRE(rows.size() > 5);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const double dt = rows[r].time - rows[r - 1].time;
    double outflow = 0;
    for (int f = 0; f < 4; ++f) outflow += rows[r - 1].balance[1 + f];
    const double change = rows[r].balance[0] - rows[r - 1].balance[0];
    CAPTURE(r);
    CHECK(change == doctest::Approx(dt * (2.0 - outflow)).epsilon(1e-10).scale(1e-3));
  }
}

TEST_SUITE_END();

}  // namespace
}  // namespace fdsolve::test
