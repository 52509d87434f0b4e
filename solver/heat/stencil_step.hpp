// The constant stencil's side of an implicit heat step (step_operator.hpp): the shifted operator
// A = I - beta L of multigrid/stencil_hierarchy.hpp, beta = dt k (BE) or dt k / 2 (CN), its
// cycles split over the ranks like the steady solve's, and the right-hand side by one stencil
// sweep of the old u.
#pragma once

#include <memory>
#include <vector>

#include "case.hpp"
#include "multigrid/stencil_hierarchy.hpp"
#include "step_operator.hpp"

namespace fdsolve::heat {

/// The side of the cycles over `levels` (split by `ranks`, whose split's level 0 is the box of
/// the fields) with the fine sweeps of `kernel`.
template <typename T>
std::unique_ptr<StepOperator<T>> stencil_step(const Case& c, Backend<T>& backend, KernelId kernel,
                                              std::vector<multigrid::LevelGeometry> levels,
                                              const StepFields<T>& fields,
                                              const multigrid::LevelRanks& ranks);

}  // namespace fdsolve::heat
