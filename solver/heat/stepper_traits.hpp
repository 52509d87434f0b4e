// What an implicit stepper offers the implicit iteration (implicit_iteration.hpp) beyond the
// calls every one has (set_step, step, extrapolate), declared by a specialization for each
// stepper; a new stepper declares its own:
// - timed_levels: time_levels(), reduce_seconds() and cycles().level_seconds(), every operation
//   of its cycles timed per level over several ranks (multigrid/level_split_summary.hpp).
#pragma once

namespace fdsolve::heat {

template <typename Stepper>
struct StepperTraits;

template <typename T>
class ImplicitStep;
template <typename T>
class FluxImplicitStep;

template <typename T>
struct StepperTraits<ImplicitStep<T>> {
  static constexpr bool timed_levels = true;
};

template <typename T>
struct StepperTraits<FluxImplicitStep<T>> {
  static constexpr bool timed_levels = false;  // the cycles run on rank 0 alone
};

}  // namespace fdsolve::heat
