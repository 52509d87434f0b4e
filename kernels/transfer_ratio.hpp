// Grid transfers between grids that need not nest (any node count coarsens): along each axis
// coarse node I lies at fine position I * den / num, so the coarse spacing is den / num fine
// spacings. Node-centred axes span the same extent (num = n_c - 1, den = n_f - 1), periodic axes
// the same period (num = n_c, den = n_f), and an axis that does not coarsen has num = den
// (semi-coarsening). Nested halving is num / den = 1 / 2.
//
// Prolongation is linear interpolation, the hat function of coarse node I evaluated at the fine
// node: p(i, I) = max(0, den - |i num - I den|) / den. Restriction is its transpose scaled by the
// ratio of the spacings, r(I, i) = (num / den) p(i, I), which is full weighting for nested
// halving and the identity for an axis that does not coarsen. Every weight is a ratio of small
// integers, so both backends compute the same values.
#pragma once

#include "grid_strides.hpp"

namespace fdsolve {

/// Where coarse nodes sit on the fine grid, per axis: coarse I at fine position I den / num.
struct TransferRatio {
  index_t num[3] = {1, 1, 1};
  index_t den[3] = {2, 2, 2};

  /// Whether every active axis halves exactly (coarse node I on fine node 2I): the transfers
  /// of transfer.hpp, full weighting and linear interpolation, apply.
  bool halves(int dims) const {
    for (int a = 0; a < dims; ++a)
      if (2 * num[a] != den[a]) return false;
    return true;
  }
};

/// floor(a / b) for b > 0 and any sign of a.
FDSOLVE_HOST_DEVICE index_t floor_div(index_t a, index_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The hat weight numerator max(0, den - |i num - I den|) (divide by den).
FDSOLVE_HOST_DEVICE index_t hat(index_t i, index_t I, index_t num, index_t den) {
  const index_t t = i * num - I * den;
  const index_t d = den - (t < 0 ? -t : t);
  return d > 0 ? d : 0;
}

/// The fine nodes a coarse node's restriction reads along one axis, with their weights (the
/// hat's non-zero values, at most 4 when the coarse spacing is at most two fine ones).
template <typename T>
struct RestrictAxis {
  index_t first = 0;
  int count = 1;
  T w[4] = {T(1), T(0), T(0), T(0)};
};

template <typename T>
FDSOLVE_HOST_DEVICE RestrictAxis<T> restrict_axis(index_t I, index_t num, index_t den) {
  // Fine i with |i num - I den| < den: (I - 1) den / num < i < (I + 1) den / num.
  RestrictAxis<T> r;
  const index_t first = floor_div((I - 1) * den, num) + 1;
  const index_t last = -floor_div(-(I + 1) * den, num) - 1;  // ceil(...) - 1
  const double unit = double(num) / (double(den) * double(den));
  r.first = first;
  r.count = 0;
  for (index_t i = first; i <= last && r.count < 4; ++i)
    r.w[r.count++] = T(unit * double(hat(i, I, num, den)));
  return r;
}

/// The coarse nodes a fine node's interpolation reads along one axis: lo (and lo + 1).
template <typename T>
struct ProlongAxis {
  index_t lo = 0;
  int count = 1;
  T w[2] = {T(1), T(0)};
};

template <typename T>
FDSOLVE_HOST_DEVICE ProlongAxis<T> prolong_axis(index_t i, index_t num, index_t den) {
  ProlongAxis<T> p;
  const index_t pos = i * num;
  p.lo = pos / den;
  const index_t t = pos - p.lo * den;  // 0 <= t < den
  p.count = t == 0 ? 1 : 2;
  p.w[0] = T(double(den - t) / double(den));
  p.w[1] = T(double(t) / double(den));
  return p;
}

/// scale x the restriction of fine field `fine` onto one coarse node, given its weights along
/// each axis (z: one weight 1 in 2D). The halo must be filled: the first fine node can lie one
/// beyond a Neumann or periodic face.
template <typename T>
FDSOLVE_HOST_DEVICE T restrict_ratio_sum(const T* fine, const GridStrides& F,
                                         const RestrictAxis<T>& x, const RestrictAxis<T>& y,
                                         const RestrictAxis<T>& z, T scale) {
  T sum = T(0);
  for (int c = 0; c < z.count; ++c) {
    T plane = T(0);
    for (int b = 0; b < y.count; ++b) {
      const T* row = fine + F.at(x.first, y.first + b, z.first + c);
      T r = T(0);
      for (int a = 0; a < x.count; ++a) r += x.w[a] * row[a];
      plane += y.w[b] * r;
    }
    sum += z.w[c] * plane;
  }
  return scale * sum;
}

/// The linearly interpolated correction at one fine node from coarse field `coarse`, given its
/// weights along each axis (the coarse halo holds the wrap a periodic axis's last nodes read).
template <typename T>
FDSOLVE_HOST_DEVICE T prolong_ratio_sum(const T* coarse, const GridStrides& C,
                                        const ProlongAxis<T>& x, const ProlongAxis<T>& y,
                                        const ProlongAxis<T>& z) {
  T sum = T(0);
  for (int c = 0; c < z.count; ++c) {
    T plane = T(0);
    for (int b = 0; b < y.count; ++b) {
      const T* row = coarse + C.at(x.lo, y.lo + b, z.lo + c);
      T r = x.w[0] * row[0];
      if (x.count == 2) r += x.w[1] * row[1];
      plane += y.w[b] * r;
    }
    sum += z.w[c] * plane;
  }
  return sum;
}

/// restrict_ratio_sum at coarse node (I, J, K), its weights computed on the spot.
template <typename T>
FDSOLVE_HOST_DEVICE T restrict_ratio_node(const T* fine, const GridStrides& F,
                                          const TransferRatio& R, index_t I, index_t J, index_t K,
                                          T scale) {
  const RestrictAxis<T> z = F.dims == 3 ? restrict_axis<T>(K, R.num[2], R.den[2])
                                        : RestrictAxis<T>{};
  return restrict_ratio_sum(fine, F, restrict_axis<T>(I, R.num[0], R.den[0]),
                            restrict_axis<T>(J, R.num[1], R.den[1]), z, scale);
}

/// prolong_ratio_sum at fine node (i, j, k), its weights computed on the spot.
template <typename T>
FDSOLVE_HOST_DEVICE T prolong_ratio_node(const T* coarse, const GridStrides& C,
                                         const TransferRatio& R, index_t i, index_t j, index_t k) {
  const ProlongAxis<T> z = C.dims == 3 ? prolong_axis<T>(k, R.num[2], R.den[2])
                                       : ProlongAxis<T>{};
  return prolong_ratio_sum(coarse, C, prolong_axis<T>(i, R.num[0], R.den[0]),
                           prolong_axis<T>(j, R.num[1], R.den[1]), z);
}

}  // namespace fdsolve
