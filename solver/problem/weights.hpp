// Stencil weights of each equation (docs/numerics.md, "Stencils"), derived from the case.
#pragma once

#include "case.hpp"
#include "stencil.hpp"

namespace fdsolve {

struct EquationWeights {
  StencilWeights weights;   // weights.source is source_scale times a constant source
  double source_scale = 0;  // s = source_scale * f for a source f given node by node
};

/// The Jacobi weights of -lap u = f on the 5/7/19/27-point stencil with these spacings (19
/// and 27 points take spacing[0] on every axis): u' = sum w u_nb + source_scale f.
EquationWeights laplacian_weights(int points, int dims, const std::array<double, 3>& spacing);

/// The Jacobi weights of the case's equation and stencil. The constant source (if any) is
/// folded into weights.source; an expression source is scaled by source_scale per node.
EquationWeights equation_weights(const Case& c);

/// Heat's capacity when it is one number (problem.capacity, or a field equal at every node, which
/// op::with_constant_coefficient writes as its number); 1 for a field that varies (the flux form
/// takes it node by node) and for the other equations.
double capacity_number(const Case& c);

/// One explicit heat step c u' = c u + dt (k L u + q) as stencil weights, c the capacity's
/// number (capacity_number): the step of dt / c. The Jacobi weights of -lap u = f read
/// u' = sum w u_nb + s f, so L u = (sum w u_nb - u) / s: the step has center 1 - dt k / (c s),
/// neighbour weights dt k w / (c s), and s' = dt / c for the source q.
EquationWeights heat_step_weights(const Case& c, double dt);

}  // namespace fdsolve
