// BackendTraits: what a backend's costs are like, for the choices the multigrid cycles make once
// (their cycle plan) instead of testing a backend's or a kernel's name.
#pragma once

#include <array>
#include <string>

namespace fdsolve {

/// What a backend's costs are like: the facts the multigrid cycles plan with (once, per level),
/// so that no solver code tests a backend's or a kernel's name.
struct BackendTraits {
  /// Every operation is a launch whose fixed cost exceeds the work of a small level (a GPU):
  /// the coarse levels pay to go into one call (bottom_levels).
  bool launch_bound = false;
  /// restrict_residual is one fused pass that beats a residual sweep, a halo fill and the
  /// restriction in 2D (`fdsolve bench --multigrid`; not in 3D, where each coarse node
  /// recomputes 27 residuals).
  bool fused_residual_restriction_2d = false;
  /// The step kernel built for smoothing passes of two sweeps, per dimension count (index 2 or
  /// 3); "" where the backend has none (the cycles then smooth with single sweeps).
  std::array<std::string, 4> smoothing_pass_kernel;
};

}  // namespace fdsolve
