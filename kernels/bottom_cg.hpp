// Multigrid's bottom solve: conjugate gradients on the coarsest grid, to a tolerance, so that a
// coarsest grid of any size costs what CG costs on it instead of a sweep count that grows with
// its condition number.
//
// The system is the level's scaled equation S x = g, S = (omega / diag) A, whose residual is
// what the level's residual weights compute (r = g + w.center x + sum w_nb x_nb, so S x is
// minus that sum). Beyond a Neumann face the operand mirrors, beyond a periodic one it wraps;
// Dirichlet nodes hold zero and are not unknowns. With mirrored faces S is self-adjoint in the
// inner product that weighs a node by its share of the cell volume (1/2 per Neumann face it
// lies on), so CG runs in that inner product. Without a Dirichlet face and with no shift the
// operator is singular (constants are its null space): the residual is kept free of constants.
#pragma once

#include "stencil.hpp"
#include "transfer.hpp"

namespace fdsolve {

template <typename T>
struct BottomSolveArgs {
  T* x = nullptr;        // solution: read as the start, overwritten
  const T* g = nullptr;  // right-hand side
  T* r = nullptr;        // scratch fields of the same layout, halo included
  T* p = nullptr;
  T* q = nullptr;
  Layout layout;
  Box box;                   // the unknowns (Dirichlet nodes out)
  StencilWeights residual;   // the level's residual weights (source unused)
  std::array<GhostRule, 6> rules{};  // how an index beyond each face folds back
  bool singular = false;     // no Dirichlet face and no shift: remove constants
  double tolerance = 1e-6;   // stop when |r| <= tolerance |r_0| (the volume-weighted 2-norm)
  int max_iterations = 100;
};

/// S p at node (i, j, k): minus the residual weights applied to p, indices beyond a face folded.
/// Offsets with one, two or three non-zero components take the face, edge or corner weight.
template <typename T>
FDSOLVE_HOST_DEVICE T bottom_apply(const T* p, const FineFold& F, const TypedWeights<T>& w,
                                   index_t i, index_t j, index_t k) {
  const int dims = F.s.dims;
  const bool edges = dims == 3 && (w.edge != T(0) || w.corner != T(0));
  T sum = w.center * p[F.s.at(i, j, k)];
  for (int dz = dims == 3 ? -1 : 0; dz <= (dims == 3 ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonzero == 0 || (nonzero > 1 && !edges)) continue;
        T weight;
        if (nonzero == 1)
          weight = dx != 0 ? w.fx : dy != 0 ? w.fy : w.fz;
        else
          weight = nonzero == 2 ? w.edge : w.corner;
        const index_t a = F.fold(0, i + dx), b = F.fold(1, j + dy);
        const index_t c = dims == 3 ? F.fold(2, k + dz) : 0;
        sum += weight * p[F.s.at(a, b, c)];
      }
  return -sum;
}

/// The node's share of the cell volume: 1/2 for each mirrored (Neumann) face it lies on.
FDSOLVE_HOST_DEVICE double bottom_mass(const FineFold& F, index_t i, index_t j, index_t k) {
  const index_t at[3] = {i, j, k};
  double m = 1.0;
  for (int a = 0; a < F.s.dims; ++a) {
    if (at[a] == 0 && F.lo[a] == 1) m *= 0.5;
    if (at[a] == F.n[a] - 1 && F.hi[a] == 1) m *= 0.5;
  }
  return m;
}

}  // namespace fdsolve

namespace fdsolve {

/// The arguments as plain scalars for device code (Box and Layout hold std::arrays).
template <typename T>
struct BottomPlain {
  T* x;
  const T* g;
  T *r, *p, *q;
  FineFold F;
  index_t lo[3], extent[3];
  TypedWeights<T> w;
  bool singular;
  double tolerance;
  int max_iterations;

  FDSOLVE_HOST_DEVICE index_t cells() const { return extent[0] * extent[1] * extent[2]; }
};

template <typename T>
BottomPlain<T> bottom_plain(const BottomSolveArgs<T>& a) {
  BottomPlain<T> b{a.x, a.g, a.r, a.p, a.q, fine_fold(a.layout, a.rules), {}, {},
                   typed<T>(a.residual), a.singular, a.tolerance, a.max_iterations};
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = a.box.lo[d];
    b.extent[d] = a.box.extent(d);
  }
  return b;
}

/// The conjugate-gradient iteration over a team of workers: `team.rank()` / `team.size()`
/// split the unknowns, `team.sum(v)` adds one value per worker and hands every worker the
/// total (in a fixed order: deterministic), `team.sync()` orders the field updates. The CPU runs
/// it with a team of one, CUDA with one thread block. Returns the iterations taken.
template <typename T, typename Team>
FDSOLVE_HOST_DEVICE int bottom_cg(const BottomPlain<T>& a, Team& team) {
  const index_t cells = a.cells();
  const auto node = [&](index_t n, index_t& i, index_t& j, index_t& k) {
    i = a.lo[0] + n % a.extent[0];
    j = a.lo[1] + (n / a.extent[0]) % a.extent[1];
    k = a.lo[2] + n / (a.extent[0] * a.extent[1]);
    return a.F.s.at(i, j, k);
  };
  // The volume-weighted sum of f(node) over the unknowns.
  const auto dot = [&](const T* u, const T* v) {
    double s = 0;
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      s += bottom_mass(a.F, i, j, k) * double(u[e]) * double(v[e]);
    }
    return team.sum(s);
  };
  // Removes the volume-weighted mean of r (the singular operator's null space).
  const auto remove_mean = [&]() {
    if (!a.singular) return;
    double s = 0, m = 0;
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      const double mass = bottom_mass(a.F, i, j, k);
      s += mass * double(a.r[e]);
      m += mass;
    }
    const double mean = team.sum(s) / team.sum(m);
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      a.r[e] = T(double(a.r[e]) - mean);
    }
    team.sync();
  };
  // r = g - S x, p = r.
  for (index_t n = team.rank(); n < cells; n += team.size()) {
    index_t i, j, k;
    const index_t e = node(n, i, j, k);
    a.r[e] = a.g[e] - bottom_apply(a.x, a.F, a.w, i, j, k);
  }
  team.sync();
  remove_mean();
  for (index_t n = team.rank(); n < cells; n += team.size()) {
    index_t i, j, k;
    const index_t e = node(n, i, j, k);
    a.p[e] = a.r[e];
  }
  team.sync();
  double rho = dot(a.r, a.r);
  const double stop = a.tolerance * a.tolerance * rho;
  int it = 0;
  while (rho > stop && rho > 0 && it < a.max_iterations) {
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      a.q[e] = bottom_apply(a.p, a.F, a.w, i, j, k);
    }
    team.sync();
    const double pq = dot(a.p, a.q);
    if (!(pq > 0)) break;  // S is positive definite on the search space: rounding has won
    const T alpha = T(rho / pq);
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      a.x[e] += alpha * a.p[e];
      a.r[e] -= alpha * a.q[e];
    }
    team.sync();
    remove_mean();
    const double next = dot(a.r, a.r);
    const T beta = T(next / rho);
    rho = next;
    for (index_t n = team.rank(); n < cells; n += team.size()) {
      index_t i, j, k;
      const index_t e = node(n, i, j, k);
      a.p[e] = a.r[e] + beta * a.p[e];
    }
    team.sync();
    ++it;
  }
  return it;
}

}  // namespace fdsolve
