// The discretization error of solve.tolerance: discretization, by Richardson extrapolation:
// the schemes are second order, so on a grid of spacing h the error is about C h^2 (C smooth)
// and on the grid of spacing 2h through every other node about 4 C h^2. The two grids' discrete
// solutions differ at the shared nodes by 3 C h^2: a third of that difference estimates the
// fine grid's error. The coarse grid's problem is the same case (its expressions evaluated on
// the coarse nodes), solved to a tight tolerance before the fine solve: a quarter (2D) or an
// eighth (3D) of the fine grid's nodes.
#pragma once

#include <string>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "layout.hpp"

namespace fdsolve::multigrid {

/// Why solve.tolerance: discretization cannot run on `c` ("" when it can): the grid must halve
/// (an even number of intervals on every axis, at least four), the source and the boundary
/// data must be numbers or expressions (they are evaluated on the coarse nodes).
std::string richardson_obstacle(const Case& c);

/// The case on every other node of `c`'s grid, solved by multigrid to a residual 1e-7 (float:
/// 1e-5) of its initial one (full multigrid lands near its discretization error, and two
/// cycles more take the algebraic error two orders below it), without snapshots or
/// checkpoints.
Case coarse_case(const Case& c);

/// Richardson's estimate for the fine grid of a case: the coarse grid solved at construction
/// (on the same backend, logging warnings only, writing no file) and kept in backend memory.
template <typename T>
class RichardsonEstimate {
 public:
  /// `L` and `box`: the fine field's layout (one rank: the whole grid) and update box.
  RichardsonEstimate(const Case& c, Backend<T>& backend, const Layout& L, const Box& box);

  /// A third of the difference between `u` and the coarse solution at the shared nodes inside
  /// the fine update box, in the case's norm (root mean square over them, or maximum).
  double operator()(const Buffer<T>& u) const;
  /// Seconds the coarse grid's solve took.
  double coarse_seconds() const { return seconds_; }

 private:
  bool l2_;  // the case's norm: root mean square (else maximum)
  Backend<T>& backend_;
  Layout fine_layout_, coarse_layout_;
  Box coarse_box_;  // the coarse nodes whose fine counterpart is in the fine update box
  Buffer<T> coarse_;
  double seconds_ = 0;
};

}  // namespace fdsolve::multigrid
