// Jacobi weights: the 5- and 7-point stencils take per-axis spacing; 19 and 27 points need
// equal spacing (checked by input/) and use the isotropic weights of docs/numerics.md.
#include "weights.hpp"

namespace fdsolve {
namespace {

/// -lap u = f on the 5- or 7-point stencil with spacing h[a]:
/// u = (sum_a (W_a + E_a) / h_a^2 + f) / (2 sum_a 1/h_a^2).
EquationWeights axis_weights(int dims, const std::array<double, 3>& h) {
  double inv_sum = 0;
  std::array<double, 3> inv{0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    inv[a] = 1.0 / (h[a] * h[a]);
    inv_sum += inv[a];
  }
  const double denom = 2.0 * inv_sum;
  EquationWeights e;
  e.weights.points = dims == 2 ? 5 : 7;
  for (int a = 0; a < dims; ++a) e.weights.face[a] = inv[a] / denom;
  e.source_scale = 1.0 / denom;
  return e;
}

EquationWeights isotropic_weights(int points, double h) {
  EquationWeights e;
  e.weights.points = points;
  if (points == 19) {  // (2*faces + edges + 6 h^2 f) / 24
    e.weights.face = {2.0 / 24, 2.0 / 24, 2.0 / 24};
    e.weights.edge = 1.0 / 24;
    e.source_scale = 6.0 * h * h / 24;
  } else {  // 27: (14*faces + 3*edges + corners + 30 h^2 f) / 128
    e.weights.face = {14.0 / 128, 14.0 / 128, 14.0 / 128};
    e.weights.edge = 3.0 / 128;
    e.weights.corner = 1.0 / 128;
    e.source_scale = 30.0 * h * h / 128;
  }
  return e;
}

}  // namespace

EquationWeights laplacian_weights(int points, int dims, const std::array<double, 3>& spacing) {
  if (points == 5 || points == 7) return axis_weights(dims, spacing);
  return isotropic_weights(points, spacing[0]);
}

EquationWeights equation_weights(const Case& c) {
  EquationWeights e;
  if (c.problem.equation == Equation::Custom) {
    const StencilSpec& s = c.stencil;
    e.weights.points = s.points;
    e.weights.center = s.center;
    e.weights.face = s.face;
    e.weights.edge = s.edge;
    e.weights.corner = s.corner;
    return e;  // custom stencils have no source term (s = 0)
  }
  e = laplacian_weights(c.stencil.points, c.grid.dims,
                        {c.grid.spacing(0), c.grid.spacing(1), c.grid.spacing(2)});
  // -div(beta grad u) = f with beta one number is -lap u = f / beta: the source's scale.
  const double beta = c.problem.equation != Equation::Heat && c.problem.coefficient.is_constant()
                          ? c.problem.coefficient.constant
                          : 1.0;
  if (beta != 1.0) e.source_scale /= beta;
  if (c.problem.equation == Equation::Poisson && c.problem.source.is_constant())
    e.weights.source = e.source_scale * c.problem.source.constant;
  return e;
}

double capacity_number(const Case& c) {
  const Value& v = c.problem.capacity;
  return c.problem.equation == Equation::Heat && v.is_constant() ? v.constant : 1.0;
}

EquationWeights heat_step_weights(const Case& c, double dt) {
  const EquationWeights jacobi = equation_weights(c);
  // c u_t = k lap u + q with c a number is u_t = (k / c) lap u + q / c: the step of dt / c.
  // (c = 1 divides exactly: the weights are those without a capacity, bit for bit.)
  const double capacity = capacity_number(c);
  const double step = dt / capacity;
  const double scale = step * c.problem.diffusivity / jacobi.source_scale;
  EquationWeights e;
  e.weights.points = jacobi.weights.points;
  e.weights.center = 1.0 - scale;
  for (int a = 0; a < 3; ++a) e.weights.face[a] = scale * jacobi.weights.face[a];
  e.weights.edge = scale * jacobi.weights.edge;
  e.weights.corner = scale * jacobi.weights.corner;
  e.source_scale = step;
  if (c.problem.source.is_constant()) e.weights.source = step * c.problem.source.constant;
  return e;
}

}  // namespace fdsolve
