// The flux form's side of an implicit heat step (step_operator.hpp): the variable-coefficient
// operator A = -div(k grad) of kernels/flux_operator.hpp (a diffusivity field, held nodes, a
// capacity field, Robin faces), shifted to C + beta A with C the capacity where it varies
// (FluxOperator::diagonal on the fine level and the averaged ones; the Galerkin levels' R C P by
// probing), else I. The shifted operator is solved by multigrid (FluxHierarchy, Galerkin coarse
// operators of the shifted operator), as a stationary iteration or as the preconditioner of
// conjugate gradients (solve.krylov). Held nodes keep their values, or take those at t' where
// they depend on t. Over several ranks each holds its part of u and of the fine operator, and
// rank 0 runs the cycles (multigrid/flux_on_ranks.hpp).
#pragma once

#include <memory>

#include "problem/problem.hpp"
#include "step_operator.hpp"

namespace fdsolve::heat {

/// The side of the flux form of `p` (its medium, levels and this rank's part) over the ranks of
/// the fields.
template <typename T>
std::unique_ptr<StepOperator<T>> flux_step(const problem::Problem& p, Backend<T>& backend,
                                           const StepFields<T>& fields);

}  // namespace fdsolve::heat
