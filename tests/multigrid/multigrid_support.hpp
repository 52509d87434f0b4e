// Helpers of the multigrid tests (test_multigrid*.cpp): cases on the unit square or cube,
// fields from functions, and the residual after each cycle from a random start.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "multigrid/stencil_hierarchy.hpp"
#include "multigrid/hierarchy.hpp"
#include "problem/boundary_conditions.hpp"
#include "solve_support.hpp"
#include "tuning/case_kernel.hpp"

namespace fdsolve::test {

using namespace fdsolve::multigrid;

/// A linear function of the node indices, exact under both transfers.
inline double linear(double x, double y, double z) { return 1.5 + 0.25 * x - 0.5 * y + 0.125 * z; }

template <typename T>
std::vector<T> field_of(const Layout& L, double spacing, double (*f)(double, double, double)) {
  std::vector<T> v(static_cast<std::size_t>(L.size), T(0));
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i)
        v[L.at(i, j, k)] = static_cast<T>(f(i * spacing, j * spacing, k * spacing));
  return v;
}

/// A Laplace case on the unit square/cube with `faces` (a boundary section) and `stencil`.
inline std::string laplace_case(int dims, index_t n, int stencil, const std::string& faces) {
  const std::string p = std::to_string(n);
  const std::string points = dims == 2 ? "[" + p + ", " + p + "]" : "[" + p + ", " + p + ", " + p + "]";
  const std::string extent = dims == 2 ? "[1, 1]" : "[1, 1, 1]";
  return "grid: {points: " + points + ", extent: " + extent + "}\nproblem: {equation: laplace}\n" +
         "stencil: " + std::to_string(stencil) + "\n" + faces;
}

/// The residual norm (l2) of the fine state after each of `cycles` cycles from a random
/// initial error with zero source and zero boundary values (entry 0: the initial residual).
template <typename T>
std::vector<double> cycle_residuals(const std::string& yaml, int cycles, bool fmg = false,
                                    std::uint32_t seed = 7, int fused = -1) {
  const Case c = parse_case(yaml, "t.yaml");
  auto backend = backend_for_test<T>();
  const auto levels = build_hierarchy(fine_level(c));
  const Layout L = levels[0].layout(sizeof(T));
  std::vector<T> u(static_cast<std::size_t>(L.size), T(0));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Box& b = levels[0].box;
  for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
    for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
      for (index_t i = b.lo[0]; i < b.hi[0]; ++i) u[L.at(i, j, k)] = static_cast<T>(unit(rng));
  Buffer<T> cur = backend->allocate(L.size), next = backend->allocate(L.size);
  backend->upload(cur, u.data(), L.size);
  backend->upload(next, u.data(), L.size);
  Boundaries<T> bounds(c, *backend, L);
  CycleSettings settings;
  settings.spec = c.solve.multigrid;
  settings.fuse_residual_restriction =
      fused < 0 ? fused_restriction_pays(backend->traits(), c.grid.dims) : fused == 1;
  StencilHierarchy<T> cy(levels, settings, *backend, choose_kernel(c, *backend),
               [&](Buffer<T>& x) { bounds.before_sweep(x, x, 0, 0); });
  cy.set_fine_rhs(nullptr, 0.0);
  std::vector<double> norms;
  if (fmg) {
    norms.push_back(scale_norms(cy.probe(cur, next), cy.residual_scale()).l2());
    cy.full_multigrid(cur, next);
  }
  for (int k = 0; k <= cycles; ++k) {
    norms.push_back(scale_norms(cy.probe(cur, next), cy.residual_scale()).l2());
    if (k < cycles) cy.finish_cycle(cur, next);
  }
  return norms;
}

/// The asymptotic factor per cycle: the geometric mean over the last three cycles.
inline double asymptotic_factor(const std::vector<double>& norms) {
  const std::size_t n = norms.size();
  return std::cbrt(norms[n - 1] / norms[n - 4]);
}

struct FaceCase {
  const char* name;
  std::string faces;
  bool periodic;
};

inline std::vector<FaceCase> face_cases(int dims) {
  return {
      {"dirichlet", "boundary: {default: {type: dirichlet, value: 0}}\n", false},
      {"neumann",
       "boundary:\n  default: {type: neumann, gradient: 0}\n  x_min: {type: dirichlet, value: 0}\n",
       false},
      {"periodic",
       "boundary:\n  default: {type: dirichlet, value: 0}\n  x_min: {type: periodic}\n"
       "  x_max: {type: periodic}\n" +
           std::string(dims == 3 ? "  z_min: {type: periodic}\n  z_max: {type: periodic}\n" : ""),
       true},
  };
}

/// The Laplace case of face case `f`: on the periodic axes one node fewer (the wrap is the
/// missing node), so that a grid of n nodes coarsens as the others do.
inline std::string face_case_yaml(int dims, index_t n, int stencil, const FaceCase& f) {
  if (!f.periodic) return laplace_case(dims, n, stencil, f.faces);
  const std::string P = std::to_string(n - 1), N = std::to_string(n);
  return "grid: {points: [" + P + ", " + N + (dims == 3 ? ", " + P : std::string()) +
         "], extent: [1, 1" + (dims == 3 ? ", 1" : std::string()) +
         "]}\nproblem: {equation: laplace}\nstencil: " + std::to_string(stencil) + "\n" + f.faces;
}

}  // namespace fdsolve::test
