// The fields of the steps before the current one, which the implicit steps keep for a step's
// extrapolated first guess (time.extrapolate), its checkpoint (so that --resume continues
// bit-identically) and the diagnostics and `update` field (u one step earlier).
//
// The guess is a combination of u = u^n and the earlier fields u^(n-1), u^(n-2), u^(n-3).
// Per mode of the operator a step multiplies u by a factor g (exp(-lambda dt) for the exact
// solution; Crank-Nicolson's (1 - z/2) / (1 + z/2), z = -lambda dt, tends to -1 for the
// highest modes), and the guess errs by p(g) u^(n-s), p the polynomial of the combination:
//   linear   u + r (u - u1), r = dt / dt_last      p = (g - 1)^2 at r = 1
//   3 fields u + u1 - u2                           p = (g - 1)^2 (g + 1)
//   4 fields 2u - 2 u2 + u3                        p = (g - 1)^3 (g + 1)
// The (g + 1) factor removes the modes Crank-Nicolson flips from step to step, which a jump
// in the data leaves behind and which the residual weighs by the operator's largest
// eigenvalues (the linear guess doubles them); the (g - 1)^3 factor makes the smooth modes'
// error third order in dt. The combinations need steps of one dt; the linear guess takes any
// ratio (the Rannacher half steps, the last step). Backward Euler has no flipping modes and
// keeps the linear guess.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "backend.hpp"
#include "loop/checkpoint.hpp"
#include "loop/loop_support.hpp"
#include "loop/stability.hpp"
#include "step_solve.hpp"

namespace fdsolve::heat {

template <typename T>
class EarlierSteps {
 public:
  /// Keeps `kept` earlier fields (0 to 3) of layout L; with `for_update` at least one (the
  /// diagnostics and the `update` field compare u with the step before).
  EarlierSteps(Backend<T>& backend, const Layout& L, int kept, bool for_update)
      : backend_(backend), L_(L), kept_(kept) {
    const int buffers = std::max(kept, for_update ? 1 : 0);
    for (int i = 0; i < buffers; ++i) fields_.push_back(backend.allocate(L.size));
    if (kept > 0) spare_ = backend.allocate(L.size);
  }

  /// The earlier fields a checkpoint carried (`cur`: u as resumed, whose ghosts and boundary
  /// nodes fill the rest of each field).
  void restore(const Checkpoint& k, const Buffer<T>& cur) {
    if (kept_ == 0 || k.u_previous.empty()) return;
    std::vector<T> field(static_cast<std::size_t>(L_.size));
    backend_.download(field.data(), cur, L_.size);
    for (; have_ < kept_ && have_ < static_cast<int>(k.u_previous.size()); ++have_) {
      place_owned(k.u_previous[static_cast<std::size_t>(have_)], L_, field);
      backend_.upload(fields_[static_cast<std::size_t>(have_)], field.data(), L_.size);
    }
  }

  /// Sets the hooks of step `it` of `plan` (cur: the loop's u): the guess from the earlier
  /// steps when there are any, and the rotation that makes u^n the last of them.
  template <typename Stepper>
  void prepare(StepPlan& step, std::int64_t it, const TimePlan& plan, Buffer<T>& cur,
               Stepper& stepper) {
    if (fields_.empty()) return;
    if (kept_ == 0 || have_ == 0) {  // the first step: nothing to extrapolate from yet
      backend_.copy(fields_[0], cur);
      if (kept_ > 0) have_ = 1;
      return;
    }
    const std::vector<double> c = coefficients(step, it, plan);
    step.after_rhs = [this, &cur] { backend_.copy(spare_, cur); };
    step.start_guess = [this, &cur, &stepper, c] {
      std::vector<const Buffer<T>*> earlier;
      for (std::size_t i = 0; i + 1 < c.size(); ++i) earlier.push_back(&fields_[i]);
      stepper.extrapolate(cur, earlier, c);
      // u^n (in spare) becomes the last field, the others one step older; the oldest frees.
      spare_.swap(fields_[static_cast<std::size_t>(kept_ - 1)]);
      for (int i = kept_ - 1; i >= 1; --i)
        fields_[static_cast<std::size_t>(i)].swap(fields_[static_cast<std::size_t>(i - 1)]);
      have_ = std::min(have_ + 1, kept_);
    };
  }

  /// u one step before the loop's u (valid once a step is done).
  const Buffer<T>& last() const { return fields_.at(0); }
  bool any() const { return !fields_.empty(); }

  /// The earlier fields a checkpoint carries (none without extrapolation).
  std::vector<const Buffer<T>*> checkpoint_fields() const {
    std::vector<const Buffer<T>*> list;
    for (int i = 0; i < (kept_ > 0 ? have_ : 0); ++i)
      list.push_back(&fields_[static_cast<std::size_t>(i)]);
    return list;
  }

 private:
  /// The guess's coefficients of u, u^(n-1), ... (see the top of this file): the longest
  /// combination the earlier steps allow, all of one dt with this one's.
  std::vector<double> coefficients(const StepPlan& step, std::int64_t it,
                                   const TimePlan& plan) const {
    int equal = 0;  // earlier steps of this step's dt, back to back
    while (equal < have_ && it - 1 - equal >= 1 && plan.step_dt(it - 1 - equal) == plan.step_dt(it))
      ++equal;
    if (!step.backward_euler && equal >= 3) return {2.0, 0.0, -2.0, 1.0};
    if (!step.backward_euler && equal >= 2) return {1.0, 1.0, -1.0};
    const double r = plan.step_dt(it) / plan.step_dt(it - 1);
    return {1.0 + r, -r};
  }

  Backend<T>& backend_;
  Layout L_;
  int kept_;
  int have_ = 0;                 // fields holding steps before the current one
  std::vector<Buffer<T>> fields_;  // u^(n-1), u^(n-2), ...
  Buffer<T> spare_;              // u^n, copied before the step changes it
};

}  // namespace fdsolve::heat
