// Order of accuracy by manufactured solutions: Poisson with the 2D 5-point and the 3D 7-, 19-
// and 27-point stencils, Dirichlet faces and mixed Neumann/Dirichlet faces, and the heat
// equation's Fourier-mode decay with dt = c h^2; on three grids each, the observed order
// log2(e_h / e_{h/2}) must be within 0.1 of 2 in l2 and in linf. Compiled for the CPU (label
// verification) and for CUDA (labels gpu;verification). The measured table is in
// docs/verification.md.
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "solve_support.hpp"

#if FDSOLVE_TEST_CUDA
#define ORDER_TEST(name) TEST_CASE("gpu: " name)
#else
#define ORDER_TEST(name) TEST_CASE("verification: " name)
#endif

using namespace fdsolve;
using namespace fdsolve::test;

namespace {

/// The discrete L2 norm of the error (trapezoidal rule over the unit square or cube: weight
/// h^d, halved per axis on boundary nodes, so that it approximates the integral of e^2) and
/// the max norm over every node.
struct Errors {
  double l2 = 0;
  double linf = 0;
};

using Exact = std::function<double(double, double, double)>;

Errors errors(const Solved& s, const Exact& exact) {
  const auto& g = s.final.info.grid;
  auto weight = [&](int axis, std::int64_t i) {
    return (i == 0 || i == g.points[axis] - 1 ? 0.5 : 1.0) * g.spacing[axis];
  };
  Errors e;
  double sum = 0;
  s.for_each_node([&](std::int64_t i, std::int64_t j, std::int64_t k, double x, double y,
                      double z, double u) {
    const double d = std::fabs(u - exact(x, y, z));
    sum += d * d * weight(0, i) * weight(1, j) * (g.dims == 3 ? weight(2, k) : 1.0);
    e.linf = std::max(e.linf, d);
  });
  e.l2 = std::sqrt(sum);
  return e;
}

/// Requires log2(e_h / e_{h/2}) within 0.1 of 2 for each pair of consecutive grids, in l2 and
/// linf; prints the table row by row (intervals per axis, errors, orders).
void check_orders(const std::string& what, const std::vector<int>& intervals,
                  const std::vector<Errors>& e) {
  for (std::size_t i = 0; i < e.size(); ++i) {
    char row[160];
    if (i == 0) {
      std::snprintf(row, sizeof row, "%s  N=%d  l2 %.3e  linf %.3e", what.c_str(), intervals[i],
                    e[i].l2, e[i].linf);
    } else {
      std::snprintf(row, sizeof row, "%s  N=%d  l2 %.3e  linf %.3e  order l2 %.3f  linf %.3f",
                    what.c_str(), intervals[i], e[i].l2, e[i].linf,
                    std::log2(e[i - 1].l2 / e[i].l2), std::log2(e[i - 1].linf / e[i].linf));
    }
    MESSAGE(row);
  }
  for (std::size_t i = 1; i < e.size(); ++i) {
    INFO(what, ": N = ", intervals[i - 1], " -> ", intervals[i]);
    CHECK(std::fabs(std::log2(e[i - 1].l2 / e[i].l2) - 2) <= 0.1);
    CHECK(std::fabs(std::log2(e[i - 1].linf / e[i].linf) - 2) <= 0.1);
  }
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

/// A manufactured Poisson problem: u, f = -lap u (both derived by hand), and the faces.
struct Manufactured {
  std::string u, f;      // expressions for the case file
  std::string boundary;  // the boundary section
  Exact exact;
};

// Dirichlet: u = prod sin(pi x_a), zero on every face, f = d pi^2 u.
Manufactured dirichlet(int dims) {
  Manufactured m;
  if (dims == 2) {
    m.u = "sin(pi*x)*sin(pi*y)";
    m.f = "2*pi^2*sin(pi*x)*sin(pi*y)";
    m.exact = [](double x, double y, double) { return std::sin(M_PI * x) * std::sin(M_PI * y); };
  } else {
    m.u = "sin(pi*x)*sin(pi*y)*sin(pi*z)";
    m.f = "3*pi^2*sin(pi*x)*sin(pi*y)*sin(pi*z)";
    m.exact = [](double x, double y, double z) {
      return std::sin(M_PI * x) * std::sin(M_PI * y) * std::sin(M_PI * z);
    };
  }
  m.boundary = "boundary: {default: {type: dirichlet, value: 0}}\n";
  return m;
}

// Neumann: shifted sines whose outward derivatives are non-zero on the Neumann faces
// (x_min, x_max, y_max and, in 3D, z_max); Dirichlet on y_min (u = 0 there) and, in 3D, on
// z_min (u = sin(pi/6) X Y, non-zero). X = sin(pi (x + 1/4)), Y = sin(3 pi y / 4),
// Z = sin(pi z / 2 + pi / 6): -lap u = (1 + 9/16 [+ 1/4]) pi^2 u.
Manufactured neumann(int dims) {
  const std::string X = "sin(pi*(x+0.25))", dX = "pi*cos(pi*(x+0.25))";
  const std::string Y = "sin(0.75*pi*y)", dY = "0.75*pi*cos(0.75*pi*y)";
  const std::string Z = "sin(0.5*pi*z+pi/6)", dZ = "0.5*pi*cos(0.5*pi*z+pi/6)";
  Manufactured m;
  if (dims == 2) {
    m.u = X + "*" + Y;
    m.f = "25/16*pi^2*" + m.u;
    m.boundary =
        "boundary:\n"
        "  default: {type: dirichlet, value: '" +
        m.u +
        "'}\n"
        "  x_min: {type: neumann, gradient: '-" +
        dX + "*" + Y +
        "'}\n"
        "  x_max: {type: neumann, gradient: '" +
        dX + "*" + Y +
        "'}\n"
        "  y_max: {type: neumann, gradient: '" +
        X + "*" + dY + "'}\n";
    m.exact = [](double x, double y, double) {
      return std::sin(M_PI * (x + 0.25)) * std::sin(0.75 * M_PI * y);
    };
  } else {
    m.u = X + "*" + Y + "*" + Z;
    m.f = "29/16*pi^2*" + m.u;
    m.boundary =
        "boundary:\n"
        "  default: {type: dirichlet, value: '" +
        m.u +
        "'}\n"
        "  x_min: {type: neumann, gradient: '-" +
        dX + "*" + Y + "*" + Z +
        "'}\n"
        "  x_max: {type: neumann, gradient: '" +
        dX + "*" + Y + "*" + Z +
        "'}\n"
        "  y_max: {type: neumann, gradient: '" +
        X + "*" + dY + "*" + Z +
        "'}\n"
        "  z_max: {type: neumann, gradient: '" +
        X + "*" + Y + "*" + dZ + "'}\n";
    m.exact = [](double x, double y, double z) {
      return std::sin(M_PI * (x + 0.25)) * std::sin(0.75 * M_PI * y) *
             std::sin(0.5 * M_PI * z + M_PI / 6);
    };
  }
  return m;
}

std::string grid(int dims, int n) {
  const std::string p = std::to_string(n + 1);
  return dims == 2 ? "grid: {points: [" + p + ", " + p + "], extent: [1, 1]}\n"
                   : "grid: {points: [" + p + ", " + p + ", " + p + "], extent: [1, 1, 1]}\n";
}

/// Solves the manufactured Poisson problem on grids of n = n0, 2 n0, 4 n0 intervals per axis
/// and checks the orders. Jacobi starts from u (the fixed point does not depend on the start)
/// and stops when the linf update is at most 1e-5 h^4: with 1 - rho >= 0.5 h^2 for these
/// problems the iteration error stays below 2e-5 h^2, four orders under the O(h^2) error.
///
/// The same problems by multigrid from a zero start, stopped when the linf residual is at most
/// 1e-4 h^2 (the inverse operator's norm is at most 1/(d pi^2) here, so the algebraic error
/// stays four orders under the O(h^2) error): the errors must equal Jacobi's to 0.1% and show
/// the same order.
void poisson_orders(const std::string& what, int dims, int stencil, const Manufactured& m, int n0) {
  std::vector<int> intervals;
  std::vector<Errors> e, mg;
  for (int n = n0; n <= 4 * n0; n *= 2) {
    const double h = 1.0 / n;
    const std::string problem = grid(dims, n) + "problem: {equation: poisson, source: '" + m.f +
                                "'}\n" + "stencil: " + std::to_string(stencil) + "\n" +
                                m.boundary;
    const Solved s = solve_text(problem + "initial: '" + m.u + "'\n" +
                                "solve: {method: jacobi, tolerance: 0, absolute_tolerance: " +
                                number(1e-5 * std::pow(h, 4)) + ", norm: linf, check_every: 50}\n");
    REQUIRE(s.result.status == SolveStatus::Converged);
    const Solved t = solve_text(problem + "solve: {method: multigrid, tolerance: 0, "
                                          "absolute_tolerance: " +
                                    number(1e-4 * h * h) + ", norm: linf}\n",
                                {}, true);
    REQUIRE(t.result.status == SolveStatus::Converged);
    intervals.push_back(n);
    e.push_back(errors(s, m.exact));
    mg.push_back(errors(t, m.exact));
    INFO(what, " N = ", n, ": multigrid l2 ", mg.back().l2, " against Jacobi's ", e.back().l2);
    CHECK(mg.back().l2 == doctest::Approx(e.back().l2).epsilon(1e-3));
    CHECK(mg.back().linf == doctest::Approx(e.back().linf).epsilon(1e-3));
  }
  check_orders(what, intervals, e);
  check_orders(what + " (multigrid)", intervals, mg);
}

/// Multigrid alone on grids of `nodes` per axis that do not nest (n - 1 odd, or halving to an
/// odd count after a level or two): the observed order between consecutive grids, log of the
/// error ratio over log of the spacing ratio, within 0.1 of 2 in l2 and linf. Stopped at an l2
/// residual of 3e-3 h^2: the algebraic error (at most the residual over d pi^2) stays four
/// orders under the O(h^2) error, and the target stays above double's rounding floor of the
/// residual (about eps |A| |u| = 4e-16 / h^2: a linf target of 1e-4 h^2 is below it from about
/// 600^2 on).
void multigrid_orders(const std::string& what, int dims, int stencil, const Manufactured& m,
                      const std::vector<int>& nodes) {
  std::vector<Errors> e;
  for (const int n : nodes) {
    const double h = 1.0 / (n - 1);
    const Solved t = solve_text(grid(dims, n - 1) + "problem: {equation: poisson, source: '" +
                                    m.f + "'}\n" + "stencil: " + std::to_string(stencil) + "\n" +
                                    m.boundary +
                                    "solve: {method: multigrid, tolerance: 0, "
                                    "max_iterations: 50, absolute_tolerance: " +
                                    number(3e-3 * h * h) + ", norm: l2}\n",
                                {}, true);
    REQUIRE(t.result.status == SolveStatus::Converged);
    e.push_back(errors(t, m.exact));
    MESSAGE(what, "  nodes ", n, "  l2 ", e.back().l2, "  linf ", e.back().linf, "  cycles ",
            t.result.iterations);
  }
  for (std::size_t i = 1; i < e.size(); ++i) {
    const double ratio = std::log(double(nodes[i] - 1) / double(nodes[i - 1] - 1));
    const double l2 = std::log(e[i - 1].l2 / e[i].l2) / ratio;
    const double linf = std::log(e[i - 1].linf / e[i].linf) / ratio;
    MESSAGE(what, "  nodes ", nodes[i - 1], " -> ", nodes[i], "  order l2 ", l2, "  linf ", linf);
    CHECK(std::fabs(l2 - 2) <= 0.1);
    CHECK(std::fabs(linf - 2) <= 0.1);
  }
}

/// The heat equation u_t = lap u from u0 = prod sin(pi x_a), zero Dirichlet faces: the exact
/// solution decays by exp(-d pi^2 t). dt = c h^2 (given explicitly) with `end` a whole number
/// of steps on every grid; the error is O(h^2 + dt) = O(h^2).
void heat_orders(const std::string& what, int dims, int stencil, double c, double end, int n0) {
  const Manufactured m = dirichlet(dims);
  std::vector<int> intervals;
  std::vector<Errors> e;
  for (int n = n0; n <= 4 * n0; n *= 2) {
    const double h = 1.0 / n;
    const Solved s =
        solve_text(grid(dims, n) + "problem: {equation: heat, diffusivity: 1}\n" +
                   "stencil: " + std::to_string(stencil) + "\n" + m.boundary + "initial: '" + m.u +
                   "'\n" + "time: {end: " + number(end) + ", dt: " + number(c * h * h) + "}\n" +
                   "solve: {check_every: 1000}\n");
    REQUIRE(s.result.status == SolveStatus::Completed);
    CHECK(s.result.iterations == std::llround(end / (c * h * h)));
    const double decay = std::exp(-dims * M_PI * M_PI * end);
    intervals.push_back(n);
    e.push_back(errors(s, [&](double x, double y, double z) { return decay * m.exact(x, y, z); }));
  }
  check_orders(what, intervals, e);
}

}  // namespace

ORDER_TEST("order 2: 2D 5-point Poisson, Dirichlet") {
  poisson_orders("poisson 2D 5-point dirichlet", 2, 5, dirichlet(2), 16);
}

ORDER_TEST("order 2: 2D 5-point Poisson, Neumann and Dirichlet") {
  poisson_orders("poisson 2D 5-point neumann", 2, 5, neumann(2), 16);
}

ORDER_TEST("order 2: 3D 7-, 19- and 27-point Poisson, Dirichlet") {
  for (const int stencil : {7, 19, 27})
    poisson_orders("poisson 3D " + std::to_string(stencil) + "-point dirichlet", 3, stencil,
                   dirichlet(3), 8);
}

ORDER_TEST("order 2: 3D 7-, 19- and 27-point Poisson, Neumann and Dirichlet") {
  for (const int stencil : {7, 19, 27})
    poisson_orders("poisson 3D " + std::to_string(stencil) + "-point neumann", 3, stencil,
                   neumann(3), 8);
}

ORDER_TEST("order 2: multigrid on grids that do not nest, 2D and 3D") {
  // 301 -> 151 -> 76 -> 39: nested twice, then not; 300 -> 151: not nested at once.
  multigrid_orders("poisson 2D 5-point dirichlet", 2, 5, dirichlet(2), {301, 601, 1201});
  multigrid_orders("poisson 2D 5-point neumann", 2, 5, neumann(2), {300, 600, 1200});
  multigrid_orders("poisson 3D 7-point neumann", 3, 7, neumann(3), {24, 48, 96});
}

ORDER_TEST("order 2: heat, a Fourier mode's decay with dt = c h^2") {
  // c below each stability limit (1/4 in 2D, 1/6 for the 7-point stencil) and away from the
  // values where the time and space errors cancel (1/12 in 2D, 1/18 and 1/6 in 3D).
  heat_orders("heat 2D 5-point", 2, 5, 0.2, 0.05, 8);
  for (const int stencil : {7, 19, 27})
    heat_orders("heat 3D " + std::to_string(stencil) + "-point", 3, stencil, 0.1, 0.025, 8);
}
