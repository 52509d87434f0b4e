// What a cycle type offers the cycle iteration (cycle_iteration.hpp) beyond the calls every one
// has (probe, finish_cycle, full_multigrid, recordable, monotone, residual_scale,
// set_interrupt), declared by a specialization for each type; a new cycle type declares its own:
// - timed_levels: time_levels(), level_seconds() and levels(), every operation timed per level
//   over several ranks (level_split_summary.hpp);
// - prepares_start: prepare_start(u, next), run before a full-multigrid start it cannot record;
// - rounding_floor: at_rounding_floor(), whether rounding holds its residual up (KrylovStall).
#pragma once

#include "stencil_hierarchy.hpp"

namespace fdsolve::multigrid {

template <typename C>
struct CycleTraits;

template <typename T>
struct CycleTraits<StencilHierarchy<T>> {
  static constexpr bool timed_levels = true;
  static constexpr bool prepares_start = false;
  static constexpr bool rounding_floor = false;
};

}  // namespace fdsolve::multigrid
