// The discretization error of solve.tolerance: discretization, by Richardson extrapolation:
// the schemes are second order, so on a grid of spacing h the error is about C h^2 (C smooth)
// and on the grid of spacing 2h through every other node about 4 C h^2. The two grids' discrete
// solutions differ at the shared nodes by 3 C h^2: a third of that difference estimates the
// fine grid's error. The coarse grid's problem is the same case (its expressions evaluated on
// the coarse nodes) solved to a tight tolerance first: a quarter (2D) or an eighth (3D) of the
// fine solve's work.
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "layout.hpp"

namespace fdsolve::multigrid {

/// Why solve.tolerance: discretization cannot run on `c` ("" when it can): the grid must halve
/// (an even number of intervals on every axis, at least four), the source and the boundary
/// data must be numbers or expressions (they are evaluated on the coarse nodes), one rank.
std::string richardson_obstacle(const Case& c);

/// The case on every other node of `c`'s grid, solved by multigrid to a residual 1e-10 of its
/// initial one, without snapshots or checkpoints.
Case coarse_case(const Case& c);

/// The coarse grid's solution, whole (x fastest), solved on `backend` with its output in a
/// directory under `c`'s output directory, removed after. Logs only warnings.
template <typename T>
std::vector<double> solve_coarse(const Case& c, Backend<T>& backend);

/// A third of the difference between the fine field `u` (layout L, the whole grid: one rank)
/// and the coarse solution at the shared nodes inside the fine update box `box`, in the case's
/// norm (root mean square, or maximum).
template <typename T>
double richardson_estimate(const Case& c, const std::vector<double>& coarse, Backend<T>& backend,
                           const Buffer<T>& u, const Layout& L, const Box& box);

}  // namespace fdsolve::multigrid
