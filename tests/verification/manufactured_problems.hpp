// Manufactured Poisson problems of the verification tests (test_discretization_tolerance.cpp,
// test_mixed_precision.cpp): the case text without its solve section and the exact solution,
// on Dirichlet, Neumann (non-zero gradients) and periodic mixes, and the error of a solve.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "solve_support.hpp"

namespace fdsolve::test::manufactured {

using Exact = std::function<double(double, double, double)>;

/// The manufactured problem: the case text without its solve section, and u.
struct Problem {
  std::string name;
  std::string text;
  Exact exact;
};

/// The root mean square and the maximum of u - exact over every node of the final snapshot.
struct Errors {
  double rms = 0;
  double max = 0;
};

inline Errors errors(const Solved& s, const Exact& exact) {
  Errors e;
  double sum = 0;
  std::size_t n = 0;
  s.for_each_node([&](std::int64_t, std::int64_t, std::int64_t, double x, double y, double z,
                      double u) {
    const double d = std::fabs(u - exact(x, y, z));
    sum += d * d;
    e.max = std::max(e.max, d);
    ++n;
  });
  e.rms = std::sqrt(sum / static_cast<double>(n));
  return e;
}

inline std::string points(int dims, int n) {
  const std::string p = std::to_string(n);
  return dims == 2 ? "[" + p + ", " + p + "]" : "[" + p + ", " + p + ", " + p + "]";
}

/// u = prod sin(pi x_a), zero Dirichlet faces, f = d pi^2 u.
inline Problem dirichlet(int dims, int stencil, int n) {
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point Dirichlet, " +
           std::to_string(n) + " points";
  const std::string u = dims == 2 ? "sin(pi*x)*sin(pi*y)" : "sin(pi*x)*sin(pi*y)*sin(pi*z)";
  p.text = "grid: {points: " + points(dims, n) + ", extent: " +
           (dims == 2 ? "[1, 1]" : "[1, 1, 1]") + "}\nstencil: " + std::to_string(stencil) +
           "\nproblem: {equation: poisson, source: '" + std::to_string(dims) + "*pi^2*" + u +
           "'}\nboundary: {default: {type: dirichlet, value: 0}}\n";
  p.exact = [dims](double x, double y, double z) {
    return std::sin(M_PI * x) * std::sin(M_PI * y) * (dims == 3 ? std::sin(M_PI * z) : 1.0);
  };
  return p;
}

/// Neumann faces with non-zero gradients (x_min, x_max, y_max, and z_max in 3D), Dirichlet on
/// y_min (u = 0) and, in 3D, z_min (u non-zero): X = sin(pi (x + 1/4)), Y = sin(3 pi y / 4),
/// Z = sin(pi z / 2 + pi / 6).
inline Problem neumann(int dims, int stencil, int n) {
  const std::string X = "sin(pi*(x+0.25))", dX = "pi*cos(pi*(x+0.25))";
  const std::string Y = "sin(0.75*pi*y)", dY = "0.75*pi*cos(0.75*pi*y)";
  const std::string Z = "sin(0.5*pi*z+pi/6)", dZ = "0.5*pi*cos(0.5*pi*z+pi/6)";
  const std::string z = dims == 3 ? "*" + Z : "";
  const std::string u = X + "*" + Y + z;
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point Neumann, " +
           std::to_string(n) + " points";
  p.text = "grid: {points: " + points(dims, n) + ", extent: " +
           (dims == 2 ? "[1, 1]" : "[1, 1, 1]") + "}\nstencil: " + std::to_string(stencil) +
           "\nproblem: {equation: poisson, source: '" + (dims == 2 ? "25/16" : "29/16") +
           "*pi^2*" + u + "'}\nboundary:\n  default: {type: dirichlet, value: '" + u +
           "'}\n  x_min: {type: neumann, gradient: '-" + dX + "*" + Y + z +
           "'}\n  x_max: {type: neumann, gradient: '" + dX + "*" + Y + z +
           "'}\n  y_max: {type: neumann, gradient: '" + X + "*" + dY + z + "'}\n" +
           (dims == 3 ? "  z_max: {type: neumann, gradient: '" + X + "*" + Y + "*" + dZ + "'}\n"
                      : std::string());
  p.exact = [dims](double x, double y, double zc) {
    return std::sin(M_PI * (x + 0.25)) * std::sin(0.75 * M_PI * y) *
           (dims == 3 ? std::sin(0.5 * M_PI * zc + M_PI / 6) : 1.0);
  };
  return p;
}

/// x periodic (h = 1 / n), a Neumann y_max and Dirichlet elsewhere: u = sin(2 pi x) Y (Z),
/// Y = sin(3 pi y / 4), Z = sin(pi z): -lap u = (4 + 9/16 (+ 1)) pi^2 u.
inline Problem periodic(int dims, int stencil, int n) {
  const std::string Y = "sin(0.75*pi*y)", dY = "0.75*pi*cos(0.75*pi*y)";
  const std::string z = dims == 3 ? "*sin(pi*z)" : "";
  const std::string u = "sin(2*pi*x)*" + Y + z;
  Problem p;
  p.name = std::to_string(dims) + "D " + std::to_string(stencil) + "-point periodic x, " +
           std::to_string(n) + " points";
  const std::string pts = dims == 2 ? "[" + std::to_string(n - 1) + ", " + std::to_string(n) + "]"
                                    : "[" + std::to_string(n - 1) + ", " + std::to_string(n) +
                                          ", " + std::to_string(n) + "]";
  p.text = "grid: {points: " + pts + ", extent: " + (dims == 2 ? "[1, 1]" : "[1, 1, 1]") +
           "}\nstencil: " + std::to_string(stencil) + "\nproblem: {equation: poisson, source: '" +
           (dims == 2 ? "73/16" : "89/16") + "*pi^2*" + u +
           "'}\nboundary:\n  default: {type: dirichlet, value: 0}\n"
           "  x_min: {type: periodic}\n  x_max: {type: periodic}\n"
           "  y_max: {type: neumann, gradient: 'sin(2*pi*x)*" +
           dY + z + "'}\n";
  p.exact = [dims](double x, double y, double zc) {
    return std::sin(2 * M_PI * x) * std::sin(0.75 * M_PI * y) *
           (dims == 3 ? std::sin(M_PI * zc) : 1.0);
  };
  return p;
}

}  // namespace fdsolve::test::manufactured
