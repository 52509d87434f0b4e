// Spectral estimates computed from the stencil weights themselves (no table of special cases):
// the explicit heat step's stability limit and the Jacobi iteration's convergence rate.
#pragma once

#include <cstdint>
#include <string>

#include "case.hpp"
#include "stencil.hpp"
#include "time_plan.hpp"

namespace fdsolve {

/// The stencil's symbol at the Fourier mode with angles theta (one per axis; unused axes 0):
/// center + 2 sum_a face_a cos(theta_a) + 4 edge sum_{a<b} cos cos + 8 corner prod cos.
double stencil_symbol(const StencilWeights& w, int dims, const double theta[3]);

/// The largest stable explicit step dt of u' = u + dt (k L u + q) for the case's stencil and
/// spacing: 2 / (k max|lambda|), lambda the Laplacian's symbol. The symbol is multilinear in
/// the cosines, so its extremes lie at the 2^dims modes with theta_a in {0, pi}.
double heat_stability_limit(const Case& c);

/// The plan of a heat case: dt = safety * limit for dt: auto, else the given dt. With the
/// explicit scheme a given dt above the limit is an InputError naming dt, the limit, h, k and
/// the stencil, unless `allow_unstable` (tests that show the limit is real); the implicit
/// schemes take any dt.
TimePlan heat_time_plan(const Case& c, bool allow_unstable = false);

/// Crank-Nicolson on sharp initial data: the highest mode of the stencil is multiplied by
/// g = (1 - r) / (1 + r) per step, r = dt k |lambda_max| / 2 = dt / (explicit limit). g tends
/// to -1 as dt grows: that mode flips sign every step and hardly decays, so a jump in the
/// initial data (or a Dirichlet value switched on at t = 0) rings as a node-to-node
/// oscillation. `rings` when g < -0.5, i.e. r > 3 (dt above 3x the explicit limit): the
/// oscillation then loses less than half its amplitude per step and is still visible after a
/// few steps. steps_to_damp: steps for it to fall by 1000 (ln 1e-3 / ln |g|). A Rannacher
/// start (plan.startup backward-Euler steps of dt / 2) that damps the mode by 1000 or more
/// leaves nothing to ring.
struct CrankNicolsonRinging {
  double amplification = 0;
  double steps_to_damp = 0;
  bool rings = false;  // only for time.scheme crank-nicolson, when no start damps it
  /// The highest mode's factor over the backward-Euler start (1 without one): 1 / (1 + r)
  /// per step of dt / 2.
  double startup_damping = 1;
};
CrankNicolsonRinging crank_nicolson_ringing(const Case& c, const TimePlan& plan);

/// The Jacobi weights' spectral radius on the case's grid: the symbol at the smoothest mode
/// the boundaries allow (per axis pi/(n-1) between two Dirichlet faces, pi/(2(n-1)) between
/// Dirichlet and Neumann, 0 for Neumann or periodic pairs), and the iterations it predicts for
/// the norm to fall by solve.tolerance.
struct JacobiEstimate {
  double spectral_radius = 0;
  double iterations = 0;  // ln(tolerance) / ln(radius); infinite when the radius is >= 1
};
JacobiEstimate jacobi_estimate(const Case& c);

/// The k the explicit limit is computed with, for messages: "k = 2"; for a diffusivity field
/// that varies, its range and the rule that uses its largest values.
std::string describe_diffusivity(const Case& c);

/// One line naming the stencil and spacing, for messages ("27-point, h = [0.1, 0.1, 0.1]").
std::string describe_stencil(const Case& c);

}  // namespace fdsolve
