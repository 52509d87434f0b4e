// Relaxation weights from the Fourier symbol of D^-1 A. With the Jacobi weights w of -lap
// (u = sum w u_nb + s f), A = alpha I - beta L has diagonal alpha + beta/s and D^-1 A the
// symbol 1 - kappa sigma(theta), kappa = (beta/s)/diag, sigma the symbol of w. sigma is
// multilinear in the cosines, so its extremes over a box of frequencies lie at the box's
// corners: no table of stencils.
#include "level_operator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "loop/stability.hpp"

namespace fdsolve::multigrid {
namespace {

/// sigma at per-axis cosines c (the symbol of the neighbour weights, center 0).
double sigma(const StencilWeights& w, int dims, const double c[3]) {
  double theta[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) theta[a] = std::acos(std::clamp(c[a], -1.0, 1.0));
  StencilWeights nb = w;
  nb.center = 0;
  return stencil_symbol(nb, dims, theta);
}

StencilWeights neighbour_weights(const StencilWeights& w, double factor, double center) {
  StencilWeights s = w;
  s.center = center;
  for (double& f : s.face) f *= factor;
  s.edge *= factor;
  s.corner *= factor;
  s.source = 0;
  return s;
}

/// The smallest and largest cosine of the discrete modes of one axis of `g`.
std::array<double, 2> mode_cosines(const LevelGeometry& g, int axis) {
  const double n = static_cast<double>(g.n[axis]);
  if (g.periodic[axis]) {
    const double k = std::floor(n / 2);
    return {std::cos(2 * M_PI * k / n), 1.0};
  }
  const bool lo = g.faces[2 * axis] == BoundaryType::Dirichlet;
  const bool hi = g.faces[2 * axis + 1] == BoundaryType::Dirichlet;
  const double intervals = n - 1;
  if (lo && hi) return {std::cos((n - 2) * M_PI / intervals), std::cos(M_PI / intervals)};
  if (lo || hi)
    return {std::cos((n - 1.5) * M_PI / intervals), std::cos(0.5 * M_PI / intervals)};
  return {-1.0, 1.0};
}

}  // namespace

LevelOperator level_operator(const LevelGeometry& g, double alpha, double beta) {
  const double s = g.jacobi.source_scale;
  LevelOperator op;
  op.diag = alpha + beta / s;
  const double kappa = (beta / s) / op.diag;
  // High frequencies: some theta_a in [pi/2, pi], i.e. c_a in [-1, 0], on an axis the next
  // grid coarsens (semi-coarsening leaves every frequency of the other axes to the coarse
  // grid). The corners of those boxes are points of {-1, 0, 1}^dims.
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const int corners = g.dims == 2 ? 9 : 27;
  for (int v = 0; v < corners; ++v) {
    double c[3] = {1, 1, 1};
    bool high = false;
    for (int a = 0, rest = v; a < g.dims; ++a, rest /= 3) {
      c[a] = static_cast<double>(rest % 3) - 1.0;
      high = high || (c[a] < 1.0 && g.coarsens[a]);
    }
    if (!high) continue;
    const double lambda = 1.0 - kappa * sigma(g.jacobi.weights, g.dims, c);
    lo = std::min(lo, lambda);
    hi = std::max(hi, lambda);
  }
  op.omega = 2.0 / (lo + hi);
  op.smoothing_factor = (hi - lo) / (hi + lo);
  op.high_lo = lo;
  op.high_hi = hi;
  op.kappa = kappa;
  op.jacobi_weights = g.jacobi.weights;
  op.rhs_scale = op.omega / op.diag;
  op.smooth = neighbour_weights(g.jacobi.weights, op.omega * kappa, 1.0 - op.omega);
  op.residual = neighbour_weights(g.jacobi.weights, op.omega * kappa, -op.omega);
  return op;
}

StencilWeights chebyshev_sweep(const LevelOperator& op, int degree, int index) {
  // Long steps as polynomials of degree at most kMaxChebyshevDegree in turn: a product of many
  // relaxations, some with weights near 1 / lo, amplifies rounding (a step of 20 sweeps stalled
  // 100 x above the rounding floor in 2D).
  const int start = index / kMaxChebyshevDegree * kMaxChebyshevDegree;
  degree = std::min(kMaxChebyshevDegree, degree - start);
  index -= start;
  if (degree <= 1) return op.smooth;
  // Roots in decreasing order of lambda: the smallest relaxation weight first, so that the
  // large weight (> 1, which amplifies the smoothest modes on its own) comes last.
  const double theta = M_PI * (2.0 * index + 1.0) / (2.0 * degree);
  const double lambda =
      0.5 * (op.high_hi + op.high_lo) + 0.5 * (op.high_hi - op.high_lo) * std::cos(theta);
  const double omega = 1.0 / lambda;
  StencilWeights w = neighbour_weights(op.jacobi_weights, omega * op.kappa, 1.0 - omega);
  w.source_scale = omega / op.omega;
  return w;
}

BottomSolve bottom_solve(const LevelGeometry& g, const LevelOperator& op, double alpha,
                         double beta, double reduction) {
  const double kappa = (beta / g.jacobi.source_scale) / (alpha + beta / g.jacobi.source_scale);
  std::array<std::array<double, 2>, 3> cos_range{};
  for (int a = 0; a < g.dims; ++a) cos_range[a] = mode_cosines(g, a);
  const auto radius = [&](double omega) {
    double rho = 0;
    for (int v = 0; v < (1 << g.dims); ++v) {
      double c[3] = {1, 1, 1};
      for (int a = 0; a < g.dims; ++a) c[a] = cos_range[a][(v >> a) & 1];
      rho = std::max(rho, std::fabs(1.0 - omega * (1.0 - kappa * sigma(g.jacobi.weights, g.dims, c))));
    }
    return rho;
  };
  const auto sweeps_for = [reduction](double rho) {
    if (rho <= 0) return 1.0;
    if (rho >= 1) return std::numeric_limits<double>::infinity();
    return std::max(1.0, std::ceil(std::log(reduction) / std::log(rho)));
  };
  BottomSolve b;
  b.spectral_radius = radius(op.omega);
  b.sweeps = static_cast<int>(std::min(sweeps_for(b.spectral_radius), 1.0e9));
  return b;
}

}  // namespace fdsolve::multigrid
