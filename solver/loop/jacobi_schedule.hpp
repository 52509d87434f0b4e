// What each sweep of the Jacobi loop (jacobi.cpp) takes beyond u: the weights and the time of
// each sweep, steady or heat (Schedule), and the node-by-node source kept on the backend
// (SourceField).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "backend.hpp"
#include "case.hpp"
#include "problem/field_programs.hpp"
#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"
#include "problem/robin_faces.hpp"
#include "problem/weights.hpp"
#include "stability.hpp"

namespace fdsolve::jacobi_detail {

/// What differs between the steady equations and heat: how many sweeps, the weights of each,
/// and the time each one reaches.
struct Schedule {
  const Case* c = nullptr;
  bool heat = false;
  std::int64_t total = 0;  // max_iterations, or the number of heat steps
  TimePlan plan;
  EquationWeights step;  // every sweep's weights but those of the heat steps that land on a
                         // mark (an output time, the end), whose dt is shorter

  double time_after(std::int64_t it) const {
    return heat ? plan.time_after(it) : static_cast<double>(it);
  }
  EquationWeights weights(std::int64_t it) const {
    return heat && plan.lands(it) ? heat_step_weights(*c, plan.step_dt(it)) : step;
  }
};

/// The schedule of the steady equation `c`, or of heat by the steps `heat` (the problem's plan).
inline Schedule make_schedule(const Case& c, const std::optional<TimePlan>& heat) {
  Schedule s;
  s.c = &c;
  s.heat = c.problem.equation == Equation::Heat;
  if (s.heat) {
    s.plan = *heat;
    s.total = s.plan.steps;
    s.step = heat_step_weights(c, s.plan.dt);
  } else {
    s.total = c.solve.max_iterations;
    s.step = equation_weights(c);
  }
  return s;
}

/// The node-by-node source on the backend, re-evaluated only when what it holds would change:
/// a source depending on t, or the shorter last heat step's scale.
template <typename T>
class SourceField {
 public:
  SourceField(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub)
      : c_(c), backend_(backend), L_(L), sub_(sub) {
    if (has_source_field(c)) field_ = backend.allocate(L.size);
  }
  /// The source scaled by `scale` at time t, in backend memory; null when there is none.
  const T* at(double t, double scale) {
    if (field_.size() == 0) return nullptr;
    const bool in_time = c_.problem.source.uses_time || robin_ambient_uses_time(c_);
    const bool stale = !loaded_ || scale != scale_ || (in_time && t != t_);
    if (stale) {
      try {  // an expression is evaluated on the backend, into the buffer
        load_source(c_, backend_, L_, sub_, scale, t, field_);
      } catch (const NonFiniteValue& e) {
        throw NonFiniteInput(describe_nonfinite(c_, "problem.source", e.value, e.node, false) +
                             fmt::format(" at t = {}", t));
      }
      loaded_ = true;
      scale_ = scale;
      t_ = t;
    }
    return field_.data();
  }

 private:
  const Case& c_;
  Backend<T>& backend_;
  const Layout& L_;
  const Subdomain& sub_;
  Buffer<T> field_;
  bool loaded_ = false;
  double scale_ = 0, t_ = 0;
};

}  // namespace fdsolve::jacobi_detail
