// The variable-coefficient operator on the CPU (flux_operator.hpp): its sweep, the masked linear
// combination and the weighted inner product of conjugate gradients. Rows in parallel, each
// row's partial kept and merged in row order, so results do not depend on the thread count.
#include <limits>
#include <vector>

#include "row_stats.hpp"
#include "stencil_cpu.hpp"
#include "thread_policy.hpp"

namespace fdsolve::cpu {
namespace {

/// Calls row(r, j, k) for every row of `box` in parallel.
template <typename Row>
void for_rows(const Box& box, Row&& row) {
  const index_t ny = box.extent(1);
  const index_t rows = ny * box.extent(2);
#pragma omp parallel for schedule(static) num_threads(team_size(box.cells()))
  for (index_t r = 0; r < rows; ++r) row(r, box.lo[1] + r % ny, box.lo[2] + r / ny);
}

/// The face form's update of one row, without branches in the loop so that it vectorises (the
/// general form and the per-node tests of flux_update cost 2-3x on one core). `Diagonal`: the
/// per-node diagonal term is read (FluxOperator::diagonal), else it is 0 without a load;
/// `Scaled`: the step's per-node factor (FluxOperator::step_scale), else 1 without a load.
template <typename T, int Dims, bool SourceField, bool Diagonal, bool Scaled>
void face_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  const T* __restrict__ u = a.in;
  T* __restrict__ out = a.out;
  const T* __restrict__ fx = p.fx;
  const T* __restrict__ fy = p.fy;
  const T* __restrict__ fz = p.fz;
  const T* __restrict__ src = a.source_field;
  const T* __restrict__ dg = p.dg;
  const T* __restrict__ ss = p.ss;
  const T f_const = T(a.weights.source);
  const index_t py = p.pitch, pz = p.plane;
#pragma omp simd
  for (index_t c = first; c < last; ++c) {
    FluxStencilValues<T> v;
    v.u = u[c];
    v.f = SourceField ? src[c] : f_const;
    if constexpr (Diagonal) v.d = dg[c];
    if constexpr (Scaled) v.step_scale = ss[c];
    const T east = fx[c];
    v.bw = flux_magnitude(fx[c - 1]);
    v.be = flux_magnitude(east);
    v.uw = u[c - 1];
    v.ue = u[c + 1];
    v.bs = flux_magnitude(fy[c - py]);
    v.bn = flux_magnitude(fy[c]);
    v.us = u[c - py];
    v.un = u[c + py];
    if constexpr (Dims == 3) {
      v.bd = flux_magnitude(fz[c - pz]);
      v.bu = flux_magnitude(fz[c]);
      v.ud = u[c - pz];
      v.uu = u[c + pz];
    }
    const T updated = flux_face_update<Dims>(v, p);
    out[c] = east < T(0) ? p.keep * v.u : updated;
  }
}

/// The general (Galerkin) form's update of one row: stencil_residual with the offsets computed
/// once, then flux_apply, the same operations in the same order, branch-free so that the row
/// vectorises (a held row's value is selected after its update is computed).
template <typename T, int Dims, bool Bounded, bool SourceField, bool Diagonal>
void general_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  constexpr int points = Dims == 2 ? 9 : 27;
  constexpr int centre = Dims == 2 ? 4 : 13;
  index_t offset[points];
  for (int o = 0; o < points; ++o)
    offset[o] = (o % 3 - 1) + (o / 3 % 3 - 1) * p.pitch + (Dims == 3 ? o / 9 - 1 : 0) * p.plane;
  const T* __restrict__ u = a.in;
  T* __restrict__ out = a.out;
  const T* __restrict__ st = p.st;
  const T* __restrict__ src = a.source_field;
  const T* __restrict__ dg = p.dg;
  const T f_const = T(a.weights.source);
  const index_t stride = p.st_stride;
#pragma omp simd
  for (index_t c = first; c < last; ++c) {
    T sum = T(0), l1 = T(0);
#pragma GCC unroll 27
    for (int o = 0; o < points; ++o) {
      if (o == centre) continue;
      const T s = st[o * stride + c];
      sum += s * u[c + offset[o]];
      l1 += flux_magnitude(s);
    }
    const T held_mark = st[centre * stride + c];
    const T diag = held_mark + (Diagonal ? dg[c] : T(0));
    const T f = SourceField ? src[c] : f_const;
    const T updated = flux_apply_as<Bounded>(
        FluxResidual<T>{f - (diag * u[c] + sum), diag, l1 + diag}, u[c], p, flux_step_scale(p, c));
    out[c] = held_mark < T(0) ? p.keep * u[c] : updated;  // a held row keeps keep * u
  }
}

template <typename T, int Dims, bool Diagonal>
void general_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  const bool bounded = p.relax != T(0), field = a.source_field != nullptr;
  if (bounded)
    field ? general_row<T, Dims, true, true, Diagonal>(a, p, first, last)
          : general_row<T, Dims, true, false, Diagonal>(a, p, first, last);
  else
    field ? general_row<T, Dims, false, true, Diagonal>(a, p, first, last)
          : general_row<T, Dims, false, false, Diagonal>(a, p, first, last);
}

template <typename T, int Dims>
void general_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  p.dg ? general_row<T, Dims, true>(a, p, first, last)
       : general_row<T, Dims, false>(a, p, first, last);
}

template <typename T, int Dims, bool SourceField>
void face_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  if (p.ss) {  // a step scale per node (explicit heat with a capacity that varies)
    p.dg ? face_row<T, Dims, SourceField, true, true>(a, p, first, last)
         : face_row<T, Dims, SourceField, false, true>(a, p, first, last);
    return;
  }
  p.dg ? face_row<T, Dims, SourceField, true, false>(a, p, first, last)
       : face_row<T, Dims, SourceField, false, false>(a, p, first, last);
}

/// The neighbour-class form's update of one row (19 and 27 points, 3D).
template <typename T, bool SourceField>
void neighbour_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  const T* __restrict__ u = a.in;
  T* __restrict__ out = a.out;
  const T f_const = T(a.weights.source);
  for (index_t c = first; c < last; ++c) {
    const T f = SourceField ? a.source_field[c] : f_const;
    out[c] = flux_held(p, c) ? p.keep * u[c]
                             : flux_apply_as<false>(neighbour_residual(u, p, c, f), u[c], p,
                                                    flux_step_scale(p, c));
  }
}

template <typename T>
void update_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t first, index_t last) {
  if (p.classes) {
    a.source_field ? neighbour_row<T, true>(a, p, first, last)
                   : neighbour_row<T, false>(a, p, first, last);
    return;
  }
  if (p.st) {
    p.dims == 2 ? general_row<T, 2>(a, p, first, last) : general_row<T, 3>(a, p, first, last);
    return;
  }
  const bool field = a.source_field != nullptr;
  if (p.dims == 2)
    field ? face_row<T, 2, true>(a, p, first, last) : face_row<T, 2, false>(a, p, first, last);
  else
    field ? face_row<T, 3, true>(a, p, first, last) : face_row<T, 3, false>(a, p, first, last);
}

template <typename T>
SweepStats flux_row(const SweepArgs<T>& a, const FluxPlain<T>& p, index_t j, index_t k,
                    bool with_stats) {
  const Layout& L = a.layout;
  const index_t first = L.at(a.box.lo[0], j, k);
  const index_t last = first + a.box.extent(0);
  update_row(a, p, first, last);
  double sum_sq = 0, sum = 0, max_abs = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  index_t nans = 0, count = 0;
  for (index_t c = first; c < last && with_stats; ++c) {
    const T v = a.out[c];
    if (!flux_held(p, c)) {
      // Norms of d = out - keep u; the range and sum of the state: out, or u for a residual.
      const double d = static_cast<double>(v) - static_cast<double>(p.keep * a.in[c]);
      const double state = p.keep != T(0) ? static_cast<double>(v) : static_cast<double>(a.in[c]);
      const double ad = d < 0 ? -d : d;
      sum_sq += d * d;
      nans += ad != ad;
      max_abs = ad > max_abs ? ad : max_abs;
      sum += state;
      lo = state < lo ? state : lo;
      hi = state > hi ? state : hi;
      ++count;
    }
  }
  return RowStats{sum_sq, sum, max_abs, lo, hi, nans}.stats(count);
}

}  // namespace

template <typename T>
void flux_sweep(const SweepArgs<T>& a, SweepStats* stats) {
  const FluxPlain<T> p = flux_plain(a.flux, a.layout);
  const index_t rows = a.box.extent(1) * a.box.extent(2);
  if (a.box.empty()) {
    if (stats) *stats = SweepStats{};
    return;
  }
  std::vector<SweepStats> partial(stats ? rows : 0);
  for_rows(a.box, [&](index_t r, index_t j, index_t k) {
    const SweepStats s = flux_row(a, p, j, k, stats != nullptr);
    if (stats) partial[r] = s;
  });
  if (stats) {
    SweepStats total;
    for (const SweepStats& s : partial) total.merge(s);
    *stats = total;
  }
}

template <typename T>
void combine(const LinearCombinationArgs<T>& a) {
  const T ca = T(a.a), cb = T(a.b);
  for_rows(a.box, [&](index_t, index_t j, index_t k) {
    const index_t first = a.layout.at(a.box.lo[0], j, k);
    const index_t last = first + a.box.extent(0);
    if (!a.held_face) {
#pragma omp simd
      for (index_t c = first; c < last; ++c) a.y[c] = ca * a.x[c] + cb * a.y[c];
      return;
    }
    // Held nodes keep y: written back unchanged, so that the loop has no branch.
#pragma omp simd
    for (index_t c = first; c < last; ++c) {
      const T v = ca * a.x[c] + cb * a.y[c];
      a.y[c] = a.held_face[c] < T(0) ? a.y[c] : v;
    }
  });
}

template <typename T>
DotPartial dot_terms(const DotArgs<T>& a, int scale) {
  DotPartial total;
  if (a.box.empty()) return total;
  const index_t rows = a.box.extent(1) * a.box.extent(2);
  std::vector<DotPartial> partial(static_cast<std::size_t>(rows));
  const index_t n[3] = {a.layout.n[0], a.layout.n[1], a.layout.n[2]};
  const double scaling = exact_sum_factor(scale);
  const auto factor = [&](int axis, index_t at) {  // dot_weight's factor of one axis
    return (a.half[2 * axis] && at == 0 ? 0.5 : 1.0) *
           (a.half[2 * axis + 1] && at == n[axis] - 1 ? 0.5 : 1.0);
  };
  for_rows(a.box, [&](index_t r, index_t j, index_t k) {
    const index_t first = a.layout.at(a.box.lo[0], j, k);
    const double row_weight = factor(1, j) * factor(2, k);
    DotPartial p;
    for (index_t i = a.box.lo[0]; i < a.box.hi[0]; ++i) {
      const index_t c = first + (i - a.box.lo[0]);
      add_dot_term(p,
                   dot_term(static_cast<double>(a.a[c]), static_cast<double>(a.b[c]),
                            row_weight * factor(0, i)),
                   scale, scaling);
    }
    partial[static_cast<std::size_t>(r)] = p;
  });
  for (const DotPartial& p : partial) merge_dot(total, p);
  return total;
}

/// axis_transfer_node for a whole row (j, k) of a transfer along y or z: every node of the row
/// has the same index along the axis, so the faces to read and the branch are the row's, and
/// the loop over x has none (the same operations in the same order, vectorised).
template <typename T>
void transfer_row_across(const AxisTransferArgs<T>& a, const AxisTransferPlain<T>& p, index_t j,
                         index_t k) {
  const int axis = p.axis;
  const index_t c = axis == 1 ? j : k;
  const index_t step = axis == 1 ? p.face_s.pitch : p.face_s.plane;
  const index_t from_step = axis == 1 ? p.from_s.pitch : p.from_s.plane;
  // The face array at x = 0 of this row, index 0 along the axis; x advances by fx.
  const index_t face_row = p.face_s.at(0, axis == 1 ? 0 : j * p.fy, axis == 2 ? 0 : k * p.fz);
  const index_t fx = p.fx, i0 = a.box.lo[0], count = a.box.extent(0);
  T* __restrict__ to = a.to + a.to_layout.at(i0, j, k);
  const T* __restrict__ face = a.face + face_row + i0 * fx;
  const auto face_at = [&](index_t m) { return face + axis_face_index(p, m) * step; };
  if (!a.restrict && a.weights) {  // AxisTransferArgs::weights: the cycles' loops stay as they are
    const T* lo = face_at(c - 1);
    const T* hi = face_at(c);
#pragma omp simd
    for (index_t n = 0; n < count; ++n) {
      const T l = flux_magnitude(lo[n * fx]), h = flux_magnitude(hi[n * fx]);
      to[n] = (c & 1) == 0 ? T(1) : l / (l + h);
    }
    return;
  }
  if (!a.restrict) {
    const T* from = a.from + p.from_s.at(i0, axis == 1 ? c >> 1 : j, axis == 2 ? c >> 1 : k);
    const T* lo = (c & 1) ? face_at(c - 1) : nullptr;
    const T* hi = (c & 1) ? face_at(c) : nullptr;
    const auto value = [&](index_t n) {
      if ((c & 1) == 0) return from[n];
      const T l = flux_magnitude(lo[n * fx]), h = flux_magnitude(hi[n * fx]);
      return (l * from[n] + h * from[n + from_step]) / (l + h);
    };
    if (!a.accumulate) {
#pragma omp simd
      for (index_t n = 0; n < count; ++n) to[n] = value(n);
      return;
    }
    // The correction added where nodes are not held (AxisTransferArgs::accumulate).
    const T* held = a.held ? a.held + a.to_layout.at(i0, j, k) : nullptr;
#pragma omp simd
    for (index_t n = 0; n < count; ++n)
      if (!held || held[n] >= T(0)) to[n] = to[n] + value(n);
    return;
  }
  const index_t m = 2 * c;
  const T* mid = a.from + p.from_s.at(i0, axis == 1 ? m : j, axis == 2 ? m : k);
  const T *below_lo = face_at(m - 2), *below_hi = face_at(m - 1);
  const T *above_lo = face_at(m), *above_hi = face_at(m + 1);
#pragma omp simd
  for (index_t n = 0; n < count; ++n) {
    const T bl = flux_magnitude(below_lo[n * fx]), bh = flux_magnitude(below_hi[n * fx]);
    const T al = flux_magnitude(above_lo[n * fx]), ah = flux_magnitude(above_hi[n * fx]);
    const T sum = mid[n] + bh / (bl + bh) * mid[n - from_step] + al / (al + ah) * mid[n + from_step];
    to[n] = p.scale * sum;
  }
}

template <typename T>
void transfer_axis(const AxisTransferArgs<T>& a) {
  const AxisTransferPlain<T> p = axis_transfer_plain(a);
  for_rows(a.box, [&](index_t, index_t j, index_t k) {
    if (p.axis != 0) {
      transfer_row_across(a, p, j, k);
      return;
    }
    for (index_t i = a.box.lo[0]; i < a.box.hi[0]; ++i)
      axis_transfer_store(p, a.to_layout.at(i, j, k), axis_transfer_node(p, i, j, k, a.restrict));
  });
}

template <typename T>
void galerkin(const GalerkinArgs<T>& a) {
  const GalerkinPlain<T> p = galerkin_plain(a);
  for_rows(a.layout.owned_box(), [&](index_t, index_t j, index_t k) {
    for (index_t i = 0; i < a.layout.n[0]; ++i) galerkin_node(p, i, j, k);
  });
}

template <typename T>
void galerkin_product(const GalerkinProductArgs<T>& a) {
  const GalerkinProductPlain<T> p = galerkin_product_plain(a);
  constexpr int kChunk = 16;  // coarse rows sharing their fine x positions' sums
  const Box& b = a.box;
  const index_t ny = b.extent(1), rows = ny * b.extent(2);
  // A few thousand operations per node: every thread pays even on the small levels, and rows
  // near the faces cost less, so the threads take rows as they finish (electrode_box 257^3 on
  // 16 threads: 0.56 s against 0.71-0.80 s with rows dealt round in turn).
#pragma omp parallel for schedule(dynamic, 4) num_threads(team_size(64 * b.cells()))
  for (index_t r = 0; r < rows; ++r)
    for (index_t i = b.lo[0]; i < b.hi[0]; i += kChunk)
      galerkin_product_rows<kChunk>(p, i, std::min(i + kChunk, b.hi[0]), b.lo[1] + r % ny,
                                    b.lo[2] + r / ny);
}

template void galerkin_product<float>(const GalerkinProductArgs<float>&);
template void galerkin_product<double>(const GalerkinProductArgs<double>&);
template void galerkin<float>(const GalerkinArgs<float>&);
template void galerkin<double>(const GalerkinArgs<double>&);
template void transfer_axis<float>(const AxisTransferArgs<float>&);
template void transfer_axis<double>(const AxisTransferArgs<double>&);
template void flux_sweep<float>(const SweepArgs<float>&, SweepStats*);
template void flux_sweep<double>(const SweepArgs<double>&, SweepStats*);
template void combine<float>(const LinearCombinationArgs<float>&);
template void combine<double>(const LinearCombinationArgs<double>&);
template DotPartial dot_terms<float>(const DotArgs<float>&, int);
template DotPartial dot_terms<double>(const DotArgs<double>&, int);

}  // namespace fdsolve::cpu
