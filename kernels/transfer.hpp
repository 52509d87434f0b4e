// Grid transfers of multigrid between a fine field and the next coarser one (node-centred: coarse
// node I sits on fine node 2I on every axis, periodic axes included): full-weighting
// restriction and (bi/tri)linear prolongation. Plain types only; the per-node rules are
// FDSOLVE_HOST_DEVICE so both backends compute the same formula from one definition.
#pragma once

#include <array>

#include "grid_strides.hpp"
#include "halo_fill.hpp"
#include "point_update.hpp"
#include "transfer_ratio.hpp"

namespace fdsolve {

/// One transfer between two fields of `fine` and `coarse` layout. Restriction writes
/// `scale` x (full weighting of `from`) onto the coarse nodes of `box`; prolongation adds the
/// interpolation of `from` to the fine nodes of `box`. The source field's halo must be filled
/// (Neumann mirror, periodic wrap) where the box reaches the faces.
template <typename T>
struct TransferArgs {
  const T* from = nullptr;
  T* to = nullptr;
  Layout fine;
  Layout coarse;
  Box box;  // in the index space of `to`
  double scale = 1.0;
  std::array<GhostRule, 6> rules{};  // prolong_cubic_add: the coarse grid's face rules
  /// Where the coarse nodes sit on the fine grid (transfer_ratio.hpp): nested halving by
  /// default; any other ratio takes the general weights.
  TransferRatio ratio{};
};


/// Full weighting along one axis of fine element `f`: (1/4, 1/2, 1/4) x the neighbours at
/// -stride, 0, +stride, applied to the plane sums of the later axes.
template <typename T>
FDSOLVE_HOST_DEVICE T weigh_x(const T* u, index_t f) {
  return T(0.25) * (u[f - 1] + u[f + 1]) + T(0.5) * u[f];
}

template <typename T>
FDSOLVE_HOST_DEVICE T weigh_xy(const T* u, index_t f, index_t pitch) {
  return T(0.25) * (weigh_x(u, f - pitch) + weigh_x(u, f + pitch)) + T(0.5) * weigh_x(u, f);
}

/// The restricted value of coarse node (I, J, K): scale x the tensor-product full weighting of
/// the fine nodes around (2I, 2J, 2K).
template <typename T>
FDSOLVE_HOST_DEVICE T restrict_node(const T* fine, const GridStrides& F, index_t I, index_t J,
                                    index_t K, T scale) {
  const index_t f = F.at(2 * I, 2 * J, F.dims == 3 ? 2 * K : 0);
  if (F.dims == 2) return scale * weigh_xy(fine, f, F.pitch);
  const T planes = T(0.25) * (weigh_xy(fine, f - F.plane, F.pitch) +
                              weigh_xy(fine, f + F.plane, F.pitch)) +
                   T(0.5) * weigh_xy(fine, f, F.pitch);
  return scale * planes;
}

/// Linear interpolation along one axis: fine index i lies on coarse node i/2 (even) or halfway
/// between coarse nodes (i-1)/2 and (i+1)/2 (odd); either way the lower one is i >> 1.
FDSOLVE_HOST_DEVICE index_t coarse_below(index_t i) { return i >> 1; }

/// The interpolated correction at fine node (i, j, k) from the coarse field `coarse` of layout
/// C; the coarse halo must hold the periodic wrap for a periodic axis's last fine node.
template <typename T>
FDSOLVE_HOST_DEVICE T prolong_node(const T* coarse, const GridStrides& C, index_t i, index_t j,
                                   index_t k) {
  const index_t base = C.at(coarse_below(i), coarse_below(j), C.dims == 3 ? coarse_below(k) : 0);
  const bool ox = i & 1, oy = j & 1, oz = C.dims == 3 && (k & 1);
  // Sum over the 1, 2, 4 or 8 coarse nodes around the fine node, then one scale: the weights
  // are 1/2 per odd axis.
  const auto row = [&](index_t c) { return ox ? coarse[c] + coarse[c + 1] : coarse[c]; };
  const auto plane = [&](index_t c) { return oy ? row(c) + row(c + C.pitch) : row(c); };
  const T sum = oz ? plane(base) + plane(base + C.plane) : plane(base);
  const int odd = int(ox) + int(oy) + int(oz);
  const T weight = odd == 0 ? T(1) : odd == 1 ? T(0.5) : odd == 2 ? T(0.25) : T(0.125);
  return weight * sum;
}

}  // namespace fdsolve

namespace fdsolve {

/// The fused residual-and-restriction of multigrid: the scaled residual r~ = (residual
/// weights applied to u) + g is computed at the fine nodes around each coarse node and
/// restricted at once, without writing r~ to memory (two of the unfused passes' five array
/// passes saved). Beyond a Neumann face r~ is mirrored, beyond a periodic one wrapped, as the
/// unfused path's halo fill of r~ does.
template <typename T>
struct ResidualRestrictArgs {
  const T* u = nullptr;       // fine field, halo filled
  const T* g = nullptr;       // fine right-hand side field; null: `g_constant` everywhere
  double g_constant = 0;
  StencilWeights residual;    // the residual sweep's weights
  std::array<GhostRule, 6> rules{};  // the fine grid's face rules (Mirror, Wrap or None)
  T* to = nullptr;            // coarse right-hand side
  Layout fine;
  Layout coarse;
  Box box;                    // coarse nodes to write
  double scale = 1.0;
};

/// The fine grid as the fused kernel reads it: strides, node counts and how an index beyond
/// each face folds back (0 none, 1 mirror, 2 wrap).
struct FineFold {
  GridStrides s;
  index_t n[3] = {1, 1, 1};
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};

  FDSOLVE_HOST_DEVICE index_t fold(int axis, index_t i) const {
    if (i < 0) return lo[axis] == 1 ? -i : lo[axis] == 2 ? i + n[axis] : i;
    if (i >= n[axis]) return hi[axis] == 1 ? 2 * (n[axis] - 1) - i : hi[axis] == 2 ? i - n[axis] : i;
    return i;
  }
};

inline FineFold fine_fold(const Layout& L, const std::array<GhostRule, 6>& rules) {
  FineFold f;
  f.s = strides_of(L);
  for (int a = 0; a < 3; ++a) {
    f.n[a] = L.n[a];
    f.lo[a] = static_cast<int>(rules[2 * a]);
    f.hi[a] = static_cast<int>(rules[2 * a + 1]);
  }
  return f;
}

/// r~ at fine node (i, j, k), folded back inside the grid where it lies beyond a face.
template <int Points, typename T>
FDSOLVE_HOST_DEVICE T residual_at(const T* u, const T* g, T g0, const FineFold& F,
                                  const TypedWeights<T>& w, index_t i, index_t j, index_t k) {
  const index_t c = F.s.at(F.fold(0, i), F.fold(1, j), Points == 5 ? 0 : F.fold(2, k));
  const T s = g ? g[c] : g0;
  if constexpr (Points == 5)
    return update_5pt(u, c, F.s.pitch, w, s);
  else
    return update_3d<Points>(u, c, F.s.pitch, F.s.plane, w, s);
}

/// scale x the full weighting of r~ around fine node (2I, 2J, 2K), in restrict_node's order.
template <int Points, typename T>
FDSOLVE_HOST_DEVICE T restrict_residual_node(const T* u, const T* g, T g0, const FineFold& F,
                                             const TypedWeights<T>& w, index_t I, index_t J,
                                             index_t K, T scale) {
  const index_t i = 2 * I, j = 2 * J, k = Points == 5 ? 0 : 2 * K;
  const auto r = [&](index_t a, index_t b, index_t c) {
    return residual_at<Points>(u, g, g0, F, w, a, b, c);
  };
  const auto row = [&](index_t b, index_t c) {
    return T(0.25) * (r(i - 1, b, c) + r(i + 1, b, c)) + T(0.5) * r(i, b, c);
  };
  const auto plane = [&](index_t c) {
    return T(0.25) * (row(j - 1, c) + row(j + 1, c)) + T(0.5) * row(j, c);
  };
  if constexpr (Points == 5) return scale * plane(0);
  return scale * (T(0.25) * (plane(k - 1) + plane(k + 1)) + T(0.5) * plane(k));
}

}  // namespace fdsolve

namespace fdsolve {

/// Cubic interpolation of a coarse correction to the fine nodes, for full multigrid's ascent
/// (a better start than linear interpolation: its error is O(h^4) against O(h^2)): on an odd
/// fine index the 4-point weights (-1, 9, 9, -1)/16 of coarse nodes I-1 .. I+2. Beyond a face the
/// coarse correction folds back: zero Dirichlet values make it odd (e(-1) = -e(1)), Neumann
/// faces even (e(-1) = e(1)), periodic axes wrap. `rules` are the coarse grid's face rules
/// (None = Dirichlet). Adds to the fine nodes of args.box like prolong_add.
struct CoarseFold {
  GridStrides s;
  index_t n[3] = {1, 1, 1};
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // 0 Dirichlet (odd), 1 mirror (even), 2 wrap

  /// Folds index i of `axis` into the grid; returns the sign the value takes.
  FDSOLVE_HOST_DEVICE int fold(int axis, index_t& i) const {
    if (i < 0) {
      if (lo[axis] == 2) { i += n[axis]; return 1; }
      i = -i;
      return lo[axis] == 1 ? 1 : -1;
    }
    if (i >= n[axis]) {
      if (hi[axis] == 2) { i -= n[axis]; return 1; }
      i = 2 * (n[axis] - 1) - i;
      return hi[axis] == 1 ? 1 : -1;
    }
    return 1;
  }
};

inline CoarseFold coarse_fold(const Layout& L, const std::array<GhostRule, 6>& rules) {
  CoarseFold f;
  f.s = strides_of(L);
  for (int a = 0; a < 3; ++a) {
    f.n[a] = L.n[a];
    f.lo[a] = static_cast<int>(rules[2 * a]);
    f.hi[a] = static_cast<int>(rules[2 * a + 1]);
  }
  return f;
}

/// The weights and coarse indices along one axis for fine index i: even i sits on coarse i/2
/// (one point), odd i between (i-1)/2 and (i+1)/2 (four points).
struct CubicAxis {
  int count;
  index_t first;
  FDSOLVE_HOST_DEVICE static CubicAxis of(index_t i) {
    return (i & 1) ? CubicAxis{4, (i - 1) / 2 - 1} : CubicAxis{1, i / 2};
  }
  FDSOLVE_HOST_DEVICE double weight(int m) const {
    if (count == 1) return 1.0;
    return m == 0 || m == 3 ? -1.0 / 16 : 9.0 / 16;
  }
};

template <typename T>
FDSOLVE_HOST_DEVICE T prolong_cubic_node(const T* coarse, const CoarseFold& C, index_t i, index_t j,
                                         index_t k) {
  const CubicAxis ax = CubicAxis::of(i), ay = CubicAxis::of(j);
  const CubicAxis az = C.s.dims == 3 ? CubicAxis::of(k) : CubicAxis{1, 0};
  T sum = T(0);
  for (int c = 0; c < az.count; ++c)
    for (int b = 0; b < ay.count; ++b) {
      T row = T(0);
      for (int a = 0; a < ax.count; ++a) {
        index_t I = ax.first + a, J = ay.first + b, K = az.first + c;
        int sign = C.fold(0, I) * C.fold(1, J);
        if (C.s.dims == 3) sign *= C.fold(2, K);
        row += T(ax.weight(a)) * (sign > 0 ? coarse[C.s.at(I, J, K)] : -coarse[C.s.at(I, J, K)]);
      }
      sum += T(ay.weight(b) * az.weight(c)) * row;
    }
  return sum;
}

}  // namespace fdsolve
