// Stability limit and convergence estimates from the stencil's Fourier symbol.
#include "stability.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "case_reader.hpp"
#include "multigrid/hierarchy.hpp"
#include "operator/flux_levels.hpp"
#include "problem/weights.hpp"

namespace fdsolve {

double stencil_symbol(const StencilWeights& w, int dims, const double theta[3]) {
  double c[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) c[a] = std::cos(theta[a]);
  double s = w.center;
  for (int a = 0; a < dims; ++a) s += 2.0 * w.face[a] * c[a];
  if (dims == 3) {
    s += 4.0 * w.edge * (c[0] * c[1] + c[1] * c[2] + c[0] * c[2]);
    s += 8.0 * w.corner * c[0] * c[1] * c[2];
  }
  return s;
}

double heat_stability_limit(const Case& c) {
  double k = c.problem.diffusivity;
  // The capacity's number (1 when it varies: the medium's values then give the limit).
  double capacity = capacity_number(c);
  if (!c.problem.capacity.is_constant()) {
    // A capacity field: the step is u' = u + dt C^-1 (q - A u), and C^-1 A's largest
    // eigenvalue is at most max_i 2 D_i / c_i (Gershgorin on its rows: centre D_i / c_i, the
    // off-diagonal sum at most D_i / c_i), D_i the sum over the node's faces of k_f / h^2 plus
    // a Robin node's 2 h / h_a. The limit min_i c_i / D_i is the constant case's exactly where
    // c and k are uniform and no face is Robin.
    const auto m = op::resolved_medium(c);
    if (m->capacity_varies())
      return op::smallest_capacity_over_diagonal(multigrid::fine_level(c), *m);
    capacity = m->capacity_constant;
  }
  if (!c.problem.coefficient.is_constant() || op::has_robin_face(c)) {
    // A field or a Robin face: the flux operator's limit c / max_i D_i, D_i the sum over the
    // node's faces of k_f / h^2 plus a Robin node's 2 h / h_a (Gershgorin: the largest
    // eigenvalue of A is at most 2 max D_i, as a row's couplings sum to at most its faces'
    // part of D_i, and that bound is reached by the constant case's highest mode). A field
    // equal at every node runs as that number.
    const auto m = op::resolved_medium(c);
    if (m->varies() || m->robin())
      return capacity / op::largest_flux_diagonal(multigrid::fine_level(c), *m);
    k = m->constant;
  }
  // The Jacobi weights of -lap u = f are u' = sum w u_nb + s f, so L u = (sum w u_nb - u) / s:
  // the Laplacian's symbol is (symbol of the neighbour weights - 1) / s.
  const EquationWeights e = equation_weights(c);
  StencilWeights neighbours = e.weights;
  neighbours.center = 0;
  const int dims = c.grid.dims;
  double max_abs = 0;
  for (int corner = 0; corner < (1 << dims); ++corner) {
    double theta[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) theta[a] = (corner >> a) & 1 ? M_PI : 0.0;
    const double lambda = (stencil_symbol(neighbours, dims, theta) - 1.0) / e.source_scale;
    max_abs = std::max(max_abs, std::fabs(lambda));
  }
  return 2.0 * capacity / (k * max_abs);
}

std::string describe_diffusivity(const Case& c) {
  std::string text;
  const bool unit = c.problem.capacity.is_constant() && c.problem.capacity.constant == 1.0;
  if (op::has_robin_face(c) && !c.problem.capacity.is_constant() &&
      op::resolved_medium(c)->capacity_varies()) {
    text = "robin faces";  // the capacity's text below states the limit
  } else if (op::has_robin_face(c)) {
    text = fmt::format(
        "robin faces: the limit is {} / the largest sum of k_f / h^2 over a node's faces plus "
        "its robin term 2 h / h_a",
        unit ? "1" : "c");
    if (unit) return text;
  } else if (c.problem.coefficient.is_constant()) {
    text = fmt::format("k = {:g}", c.problem.diffusivity);
  } else {
    const auto m = op::resolved_medium(c);
    if (!m->varies()) {
      text = fmt::format("k = {:g}, problem.diffusivity equal at every node", m->constant);
    } else {
      text = fmt::format(
          "k from the problem.diffusivity field, {:g} to {:g}: the limit is {} / the "
          "largest sum of k_f / h^2 over a node's faces",
          m->beta_min, m->beta_max, unit ? "1" : "c");
    }
  }
  if (c.problem.equation != Equation::Heat) return text;
  if (c.problem.capacity.is_constant()) {
    if (c.problem.capacity.constant != 1.0)
      text += fmt::format(", c = {:g}", c.problem.capacity.constant);
    return text;
  }
  const auto m = op::resolved_medium(c);
  if (!m->capacity_varies())
    return text + fmt::format(", c = {:g}, problem.capacity equal at every node",
                              m->capacity_constant);
  return text + fmt::format(
                    ", c from the problem.capacity field, {:g} to {:g}: the limit is the "
                    "smallest c_i / (sum of k_f / h^2 over node i's faces{})",
                    m->capacity_min, m->capacity_max, m->robin() ? " plus its robin term" : "");
}

std::string describe_stencil(const Case& c) {
  std::string h;
  for (int a = 0; a < c.grid.dims; ++a) h += fmt::format("{}{:g}", a ? ", " : "", c.grid.spacing(a));
  return fmt::format("{}-point stencil, h = [{}]", c.stencil.points, h);
}

TimePlan heat_time_plan(const Case& c, bool allow_unstable) {
  TimePlan p;
  p.limit = heat_stability_limit(c);
  p.dt = c.time.dt_auto ? c.time.safety * p.limit : c.time.dt;
  // The implicit schemes are unconditionally stable: their dt is not limited (the limit is
  // still reported, so the user sees how far beyond it the step goes).
  const bool explicit_step = c.time.scheme == TimeScheme::Explicit;
  if (explicit_step && !c.time.dt_auto && p.dt > p.limit && !allow_unstable)
    throw InputError(c.where("time.dt") +
                     fmt::format("time.dt: {:g} is above the stability limit {:.6g} of the "
                                 "explicit step ({}, {}); use dt <= {:.6g} or dt: auto",
                                 p.dt, p.limit, describe_diffusivity(c), describe_stencil(c),
                                 p.limit));
  const std::int64_t startup =
      c.time.scheme == TimeScheme::CrankNicolson ? c.time.startup_steps : 0;
  // Output times are marks the steps land on, as time.end is.
  std::vector<double> marks = output_times(c);
  p.timed_output = !marks.empty();
  if (marks.empty()) marks.push_back(c.time.end);
  lay_out_steps(p, marks, startup);
  if (p.timed_output)
    for (const TimeSegment& s : p.segments) p.output_steps.push_back(s.first + s.steps);
  return p;
}

CrankNicolsonRinging crank_nicolson_ringing(const Case& c, const TimePlan& plan) {
  // The explicit limit is 2 / (k |lambda_max|), so r = dt k |lambda_max| / 2 = dt / limit.
  CrankNicolsonRinging g;
  const double r = plan.dt / plan.limit;
  g.amplification = (1.0 - r) / (1.0 + r);
  const double a = std::fabs(g.amplification);
  g.steps_to_damp = a < 1.0 ? (a > 0.0 ? std::log(1e-3) / std::log(a) : 0.0)
                            : std::numeric_limits<double>::infinity();
  g.startup_damping = std::pow(1.0 + r, -static_cast<double>(plan.startup));
  g.rings = c.time.scheme == TimeScheme::CrankNicolson && g.amplification < -0.5 &&
            g.startup_damping > 1e-3;
  return g;
}

JacobiEstimate jacobi_estimate(const Case& c) {
  const int dims = c.grid.dims;
  double theta[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    const bool lo = c.boundary[2 * a].type == BoundaryType::Dirichlet;
    const bool hi = c.boundary[2 * a + 1].type == BoundaryType::Dirichlet;
    const double intervals = static_cast<double>(c.grid.points[a] - 1);
    if (lo && hi)
      theta[a] = M_PI / intervals;
    else if (lo || hi)
      theta[a] = M_PI / (2.0 * intervals);
  }
  JacobiEstimate e;
  e.spectral_radius = std::fabs(stencil_symbol(equation_weights(c).weights, dims, theta));
  e.iterations = e.spectral_radius < 1.0 && c.solve.tolerance > 0
                     ? std::log(c.solve.tolerance) / std::log(e.spectral_radius)
                     : std::numeric_limits<double>::infinity();
  return e;
}

}  // namespace fdsolve
