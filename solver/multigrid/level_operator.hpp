// The operator A = alpha I - beta L of one grid (alpha = 0, beta = 1: -lap u = f; implicit heat
// steps shift it) and the sweeps multigrid builds from it, all as weights of the existing
// stencil sweep:
//   smoothing (weighted Jacobi)  u' = u + omega (f - A u) / diag  (Chebyshev: omega per sweep)
//   scaled residual              r~ = omega (f - A u) / diag  (= u' - u of the smoothing sweep)
// Both read the right-hand side as g = (omega / diag) f, so a level stores g, not f.
#pragma once

#include "hierarchy.hpp"
#include "stencil.hpp"

namespace fdsolve::multigrid {

struct LevelOperator {
  double diag = 0;       // A's diagonal
  double omega = 0;      // weighted-Jacobi relaxation weight (from the Fourier symbol)
  double rhs_scale = 0;  // g = rhs_scale * f, i.e. omega / diag
  StencilWeights smooth;    // center 1 - omega, neighbours omega kappa w (source: the g field)
  StencilWeights residual;  // center -omega, the same neighbours
  double smoothing_factor = 0;  // max |1 - omega lambda| over the high frequencies
  /// The high frequencies' eigenvalues of D^-1 A lie in [high_lo, high_hi]; omega is
  /// 2 / (high_lo + high_hi).
  double high_lo = 0, high_hi = 0;
  double kappa = 0;              // (beta / s) / diag: the neighbours' factor
  StencilWeights jacobi_weights; // the stencil's Jacobi weights (neighbour_weights' input)
};

/// The highest degree of one Chebyshev polynomial: a longer step runs polynomials of this degree
/// in turn (and one of the remaining degree).
constexpr int kMaxChebyshevDegree = 4;

/// The weights of sweep `index` (0-based) of a smoothing step of `degree` sweeps by Chebyshev
/// smoothing: relaxation weight 1 / lambda_index, lambda_index the roots of the Chebyshev
/// polynomial of that degree mapped onto [high_lo, high_hi], so that the step's error
/// propagation is the polynomial with the least maximum over the high frequencies. The source
/// field, stored for op.omega, takes the factor omega_index / omega. Degree 1 is op.smooth.
/// Steps of more than kMaxChebyshevDegree sweeps are split into polynomials of that degree.
StencilWeights chebyshev_sweep(const LevelOperator& op, int degree, int index);

/// The operator alpha I - beta L of grid `g`, L the Laplacian of its stencil.
LevelOperator level_operator(const LevelGeometry& g, double alpha, double beta);

/// The smoothing sweeps (op.smooth: the right-hand side is stored for its weight) that reduce
/// every error mode of the coarsest grid `g` by `reduction`: the count from the spectral radius
/// over the grid's discrete modes (sines between Dirichlet faces, cosines for Neumann, Fourier
/// modes for periodic axes). Infinite radius (>= 1) gives 1e9 sweeps: the caller refuses it.
struct BottomSolve {
  int sweeps = 1;
  double spectral_radius = 0;
};
BottomSolve bottom_solve(const LevelGeometry& g, const LevelOperator& op, double alpha,
                         double beta, double reduction);

}  // namespace fdsolve::multigrid
