// Backend-neutral description of one Jacobi sweep: the weights, the arrays, the box to update,
// and the norms of the update. Plain types only, so host code never sees CUDA.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <cmath>
#include <limits>

#include "flux_operator.hpp"
#include "ghost_rule.hpp"
#include "layout.hpp"

namespace fdsolve {

/// Weights of the weighted stencil (docs/numerics.md, "Stencils"):
///   2D: u' = center*u + face[0]*(W+E) + face[1]*(S+N) + s
///   3D: u' = center*u + sum over axes face[a]*(the 2 faces on a) + edge*(12 edges)
///            + corner*(8 corners) + s
/// The 7-point stencil has edge = corner = 0, the 19-point corner = 0.
struct StencilWeights {
  int points = 5;  // 5 (2D), 7, 19 or 27 (3D)
  double center = 0;
  std::array<double, 3> face{0, 0, 0};
  double edge = 0;
  double corner = 0;
  double source = 0;  // constant added to every update (already scaled by the equation)
  /// Factor on the source field's values (SweepArgs::source_field): a smoothing sweep whose
  /// relaxation weight differs from the one the field was scaled for (Chebyshev smoothing).
  double source_scale = 1;
};

/// One sweep: reads `in`, writes `out` on the nodes of `box`. Both arrays have `layout`; the
/// halo and every node outside `box` are read but never written, except the x-face ghosts named
/// by `x_ghosts`. `source_field`, when not null, has the same layout and is added to the update
/// instead of `weights.source`.
template <typename T>
struct SweepArgs {
  const T* in = nullptr;
  T* out = nullptr;
  const T* source_field = nullptr;
  Layout layout;
  Box box;
  StencilWeights weights;
  /// Faces x_min and x_max whose ghosts in `out` the sweep also writes, for the rows it updates,
  /// with the values the halo fill's x pass would give from `out` (ghost = the new value at the
  /// source node + offset): the next sweep then needs no x pass, whose one scattered sector per
  /// row costs a third of a 3D sweep. Rule None (the default): nothing is written.
  std::array<GhostFace<T>, 2> x_ghosts{};
  /// The variable-coefficient operator (flux_operator.hpp): when active, the sweep writes its
  /// update instead of the weights' (the source, field or weights.source, is its f), and the
  /// statistics leave out the held nodes: norms of d = out - keep u, range and sum of out (of
  /// u when keep is 0: a residual's statistics describe the state it is of). Single sweeps
  /// only (no x_ghosts, no sweep_steps).
  FluxOperator<T> flux{};
  /// A blocked pass of two sweeps (Backend::sweep_steps, the checked pair, the corrected pass):
  /// the second sweep's weights where they differ from the first's (Chebyshev smoothing steps);
  /// empty: `weights` for both. Only where Backend::steps_take_two_weights(kernel).
  std::optional<StencilWeights> second_weights;
  bool writes_x_ghosts() const {
    return x_ghosts[0].rule != GhostRule::None || x_ghosts[1].rule != GhostRule::None;
  }
};

/// What one checked sweep reports: the norms of d = u' - u and the range and sum of u', all
/// over the updated nodes and accumulated in double.
struct SweepStats {
  double sum_sq = 0;                                      // sum of d^2
  double max_abs = 0;                                     // max |d|; NaN when any update was NaN
  index_t count = 0;                                      // updated nodes
  double min = std::numeric_limits<double>::infinity();   // min of u'
  double max = -std::numeric_limits<double>::infinity();  // max of u'
  double sum = 0;                                         // sum of u'

  double l2() const { return count > 0 ? std::sqrt(sum_sq / static_cast<double>(count)) : 0.0; }
  double linf() const { return max_abs; }

  /// Adds one update d = next - prev.
  void add(double prev, double next) {
    const double d = next - prev;
    sum_sq += d * d;
    const double ad = std::fabs(d);
    if (ad > max_abs || std::isnan(ad)) max_abs = ad;
    min = std::fmin(min, next);
    max = std::fmax(max, next);
    sum += next;
    ++count;
  }
  /// The same statistics with the update d scaled by `factor` (> 0): norms of a quantity
  /// proportional to the update, such as the residual.
  friend SweepStats scale_norms(SweepStats s, double factor) {
    s.sum_sq *= factor * factor;
    s.max_abs *= factor;
    return s;
  }
  /// Merges another partial; NaN in max_abs propagates so that divergence is never hidden.
  void merge(const SweepStats& o) {
    sum_sq += o.sum_sq;
    if (o.max_abs > max_abs || std::isnan(o.max_abs)) max_abs = o.max_abs;
    count += o.count;
    min = std::fmin(min, o.min);
    max = std::fmax(max, o.max);
    sum += o.sum;
  }
};

}  // namespace fdsolve
