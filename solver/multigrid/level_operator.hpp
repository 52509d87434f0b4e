// The operator A = alpha I - beta L of one grid (alpha = 0, beta = 1: -lap u = f; implicit heat
// steps shift it) and the sweeps multigrid builds from it, all as weights of the existing
// stencil sweep:
//   smoothing (weighted Jacobi)  u' = u + omega (f - A u) / diag
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
};

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
