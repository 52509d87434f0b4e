// Multigrid's Galerkin coarse operator R A P formed row by row: each coarse unknown's 3^dims
// couplings from the fine operator's rows (flux_operator.hpp, any of its three forms) and the
// transfers' weights (flux_transfer.hpp), without applying A to probe fields. The same operator
// as probing it (galerkin.hpp) up to rounding, in a fraction of the work: probing applies P, A
// and R to 3^dims fields of the fine level's size.
//
// For a coarse row (I, J, K) the sums run on small local arrays, for each fine x position x
// that R's row reads:
//   v(g)  = sum over R's fine rows f = (x, fy, fz) of r_y r_z A(f, g), for the columns g within
//           one of x and two of (2J, 2K) (A's reach beyond R's);
//   W     = v with P's z weights, then its y weights, applied: the coarse y and z offsets -1..1;
// and then, per coarse row, R's x weights times W with P's x weights applied. W depends on x,
// J and K but not on I, so a chunk of coarse rows along x shares it (the CPU's chunks of 16;
// the GPU's threads take one row each).
// The fine nodes f and g are taken at their images across a mirrored (Neumann) face, which is
// where the halo fill puts a ghost's value, and unfolded on a periodic axis (array reads wrap),
// so that every coupling lands on an offset of C within -1..1. Rows of held fine nodes are
// zero (a sweep keeps them), and held columns are dropped (their values are zeroed before A).
// P's weights are read from arrays the prolongation's passes write (AxisTransferArgs::weights):
// axis a's on the grid between the levels that is fine along a and the halving axes before it,
// coarse along those after it; R's are P's (R = 2^-d P^T), a mirrored ghost reading its image's.
#pragma once

#include "galerkin_product_args.hpp"

namespace fdsolve {
namespace galerkin_detail {

/// Calls add(dx, dy, dz, value) for each coupling of the fine row of (A u)_i at layout element
/// `at` to the node at offset (dx, dy, dz) (each -1..1; dz = 0 in 2D), the centre included, in
/// each of the operator's forms. A visitor rather than an array of the row: a thread's arrays
/// live in local memory on a GPU, which the product's many threads would overflow.
template <typename T, typename Add>
FDSOLVE_HOST_DEVICE void for_fine_row(const FluxPlain<T>& p, index_t at, Add&& add) {
  const int points = p.dims == 2 ? 9 : 27, centre = p.dims == 2 ? 4 : 13;
  const T extra = flux_extra_diagonal(p, at);
  const auto at_offset = [&](int o, T v) {
    add(o % 3 - 1, o / 3 % 3 - 1, p.dims == 3 ? o / 9 - 1 : 0, v);
  };
  if (p.st) {
    for (int o = 0; o < points; ++o)
      at_offset(o, p.st[o * p.st_stride + at] + (o == centre ? extra : T(0)));
    return;
  }
  if (p.classes) {  // 3D
    const T beta = flux_magnitude(p.fx[at]);
    const T k[4] = {T(0), -beta * p.cx, -beta * p.cy, -beta * p.cz};  // by |dx|+|dy|+|dz|
    for (int o = 0; o < 27; ++o) {
      const int d = (o % 3 != 1) + (o / 3 % 3 != 1) + (o / 9 != 1);
      if (o != centre && k[d] != T(0)) at_offset(o, k[d]);
    }
    at_offset(centre, p.alpha + extra + beta * (T(6) * p.cx + T(12) * p.cy + T(8) * p.cz));
    return;
  }
  const T bw = flux_magnitude(p.fx[at - 1]), be = flux_magnitude(p.fx[at]);
  const T bs = flux_magnitude(p.fy[at - p.pitch]), bn = flux_magnitude(p.fy[at]);
  add(-1, 0, 0, -p.cx * bw);
  add(1, 0, 0, -p.cx * be);
  add(0, -1, 0, -p.cy * bs);
  add(0, 1, 0, -p.cy * bn);
  T diag = p.alpha + extra + p.cx * (bw + be) + p.cy * (bs + bn);
  if (p.dims == 3) {
    const T bd = flux_magnitude(p.fz[at - p.plane]), bu = flux_magnitude(p.fz[at]);
    add(0, 0, -1, -p.cz * bd);
    add(0, 0, 1, -p.cz * bu);
    diag += p.cz * (bd + bu);
  }
  add(0, 0, 0, diag);
}

/// The window of one coarse row's (y, z) position: per axis y, z R's fine nodes f0 .. f0 + fw - 1
/// and the columns g0 .. g0 + gw - 1 that A reaches from them, each column's slot after folding
/// (a mirrored ghost lands on its image, so that only stored nodes keep a value).
struct RowWindow {
  index_t C[3];
  int fw[3], gw[3];
  index_t f0[3], g0[3];
  int slot[3][5];
};

template <typename T>
FDSOLVE_HOST_DEVICE RowWindow row_window(const GalerkinProductPlain<T>& p, index_t I, index_t J,
                                         index_t K) {
  RowWindow r;
  r.C[0] = I;
  r.C[1] = J;
  r.C[2] = K;
  for (int a = 1; a < 3; ++a) {
    const bool on = a < p.dims;
    r.fw[a] = p.halves[a] ? 3 : 1;
    r.f0[a] = p.halves[a] ? 2 * r.C[a] - 1 : r.C[a];
    r.gw[a] = !on ? 1 : p.halves[a] ? 5 : 3;
    r.g0[a] = !on ? 0 : p.halves[a] ? 2 * r.C[a] - 2 : r.C[a] - 1;
    for (int u = 0; u < r.gw[a]; ++u) r.slot[a][u] = static_cast<int>(image(p, a, r.g0[a] + u) - r.g0[a]);
  }
  return r;
}

/// Calls visit(gx, ys, zs, c) for each coupling of the fine rows that R reads at fine x position
/// x of the row window r: its column's x offset after folding (0..2 for -1..1 from x), its y and
/// z slots in the window (after folding), and the coupling times R's y and z weights. Held rows
/// give none (a sweep keeps them); a ghost position gives none and returns false.
template <typename T, typename Visit>
FDSOLVE_HOST_DEVICE bool for_position_couplings(const GalerkinProductPlain<T>& p,
                                                const RowWindow& r, index_t x, Visit&& visit) {
  if (image(p, 0, x) != x || !(p.lo[0] == 2 || (x >= 0 && x < p.n[0]))) return false;
  int xslot[3];
  for (int dx = -1; dx <= 1; ++dx) xslot[dx + 1] = static_cast<int>(image(p, 0, x + dx) - x) + 1;
  const index_t ty[3] = {x, 0, r.C[2]};
  for (int y = 0; y < r.fw[1]; ++y) {
    const index_t fy0 = r.f0[1] + y, fy = image(p, 1, fy0);
    const T ry = p.scale * weight_of(p, 1, fy0, r.C[1], ty);
    const index_t tz[3] = {x, fy, 0};
    for (int z = 0; z < r.fw[2]; ++z) {
      const index_t fz0 = r.f0[2] + z, fz = image(p, 2, fz0);
      const T rz = ry * weight_of(p, 2, fz0, r.C[2], tz);
      const index_t at = fine_at(p, x, fy, fz);
      if (rz == T(0) || flux_held(p.a, at)) continue;  // a held row's A u is 0
      const int sy = static_cast<int>(fy - r.g0[1]), sz = static_cast<int>(fz - r.g0[2]);
      for_fine_row(p.a, at, [&](int dx, int dy, int dz, T value) {
        visit(xslot[dx + 1], r.slot[1][sy + dy], r.slot[2][sz + dz], rz * value);
      });
    }
  }
  return true;
}

/// W for fine x position x of the row window r (see the top of this file): over the columns' x
/// offset (-1..1 from x, after folding) and the coarse y and z offsets, the sum over R's fine
/// rows in y and z of their weights times A, held columns dropped, P's z and y weights applied.
/// The couplings are first summed per column (v), then each column goes through its parents
/// once: the least work, for the CPU, whose threads keep these arrays in cache.
template <typename T>
FDSOLVE_HOST_DEVICE void position_sums(const GalerkinProductPlain<T>& p, const RowWindow& r,
                                       index_t x, T w[27]) {
  for (int m = 0; m < 27; ++m) w[m] = T(0);
  T v[75];  // [gz][gy][x offset], 5 x 5 x 3
  for (int m = 0; m < 75; ++m) v[m] = T(0);
  const bool stored = for_position_couplings(
      p, r, x, [&](int gx, int ys, int zs, T c) { v[(zs * 5 + ys) * 3 + gx] += c; });
  if (!stored) return;
  // Held columns are dropped (their values are zeroed before A); then P's z weights at fine
  // (gx, gy), its y weights at fine gx and coarse z.
  T t1[45];  // [cz][gy][x offset]
  for (int m = 0; m < 45; ++m) t1[m] = T(0);
  index_t c[2];
  T wt[2];
  for (int y = 0; y < r.gw[1]; ++y)
    for (int gx = 0; gx < 3; ++gx) {
      const index_t t[3] = {x + gx - 1, r.g0[1] + y, 0};
      const index_t base = weight_base(p, 2, t), column = fine_at(p, t[0], t[1], 0);
      for (int z = 0; z < r.gw[2]; ++z) {
        const T value = v[(z * 5 + y) * 3 + gx];
        if (value == T(0)) continue;
        const index_t gz = r.g0[2] + z;
        if (flux_held(p.a, column + stored_index(gz, p.n[2], p.lo[2] == 2) * p.fs.plane))
          continue;
        const int count = parents(p, 2, base, gz, c, wt);
        for (int m = 0; m < count; ++m)
          t1[((c[m] - r.C[2] + 1) * 5 + y) * 3 + gx] += wt[m] * value;
      }
    }
  for (int cz = 0; cz < 3; ++cz)
    for (int gx = 0; gx < 3; ++gx) {
      const index_t t[3] = {x + gx - 1, 0, r.C[2] + cz - 1};
      const index_t base = weight_base(p, 1, t);
      for (int y = 0; y < r.gw[1]; ++y) {
        const T value = t1[(cz * 5 + y) * 3 + gx];
        if (value == T(0)) continue;
        const int count = parents(p, 1, base, r.g0[1] + y, c, wt);
        for (int m = 0; m < count; ++m)
          w[(cz * 3 + (c[m] - r.C[1] + 1)) * 3 + gx] += wt[m] * value;
      }
    }
}

/// The same W, each coupling sent straight through its column's parents: more lookups than
/// position_sums (a column that several fine rows reach is looked up by each), but no array
/// over the columns, which a GPU's threads would keep in local memory (several KB a thread,
/// more than its cache holds for all of them). Equal to position_sums up to rounding.
template <typename T>
FDSOLVE_HOST_DEVICE void position_sums_by_coupling(const GalerkinProductPlain<T>& p,
                                                   const RowWindow& r, index_t x, T w[27]) {
  for (int m = 0; m < 27; ++m) w[m] = T(0);
  for_position_couplings(p, r, x, [&](int gx, int ys, int zs, T v) {
    const index_t gy = r.g0[1] + ys, gz = r.g0[2] + zs;
    if (flux_held(p.a, fine_at(p, x + gx - 1, gy, gz))) return;  // zeroed before A
    index_t cz[2], cy[2];
    T wz[2], wy[2];
    const index_t tc[3] = {x + gx - 1, gy, 0};
    const int nz = parents(p, 2, weight_base(p, 2, tc), gz, cz, wz);
    for (int m = 0; m < nz; ++m) {
      const index_t tb[3] = {x + gx - 1, 0, cz[m]};
      const int ny = parents(p, 1, weight_base(p, 1, tb), gy, cy, wy);
      const T vz = wz[m] * v;
      for (int q = 0; q < ny; ++q)
        w[((cz[m] - r.C[2] + 1) * 3 + (cy[q] - r.C[1] + 1)) * 3 + gx] += wy[q] * vz;
    }
  });
}

/// Adds coarse row I's share of fine x position fx (R's x weight rx) to its couplings `out`:
/// W of that position with P's x weights at coarse y and z.
template <typename T>
FDSOLVE_HOST_DEVICE void fold_position(const GalerkinProductPlain<T>& p, const RowWindow& r,
                                       index_t I, index_t fx, T rx, const T w[27], T out[27]) {
  index_t c[2];
  T wt[2];
  for (int cz = 0; cz < 3; ++cz)
    for (int cy = 0; cy < 3; ++cy) {
      const index_t t[3] = {0, r.C[1] + cy - 1, r.C[2] + cz - 1};
      const index_t base = weight_base(p, 0, t);
      for (int gx = 0; gx < 3; ++gx) {
        const T value = w[(cz * 3 + cy) * 3 + gx];
        if (value == T(0)) continue;
        const int count = parents(p, 0, base, fx + gx - 1, c, wt);
        for (int m = 0; m < count; ++m) out[(cz * 3 + cy) * 3 + (c[m] - I + 1)] += rx * wt[m] * value;
      }
    }
}

/// Coarse row I's couplings into the stencil arrays.
template <typename T>
FDSOLVE_HOST_DEVICE void store_row(const GalerkinProductPlain<T>& p, index_t I, index_t J,
                                   index_t K, const T out[27]) {
  const int points = p.dims == 3 ? 27 : 9, first = p.dims == 3 ? 0 : 9;  // 2D: the z = 0 plane
  const index_t at = p.cs.at(I, J, K);
  for (int o = 0; o < points; ++o) p.stencil[o * p.stride + at] = out[first + o];
}

}  // namespace galerkin_detail

/// Coarse rows (I, J, K), I0 <= I < I1 <= I0 + Chunk, of R A P into the stencil arrays (see the
/// top of this file). The sums over the fine rows of R and P's weights along y and z depend on
/// a fine x position, not on I: they are formed once per fine x position of the chunk (W) and
/// shared by the coarse rows whose R reads that position. Chunk 1 (a GPU thread's row) keeps
/// one position's W at a time and forms it by coupling (position_sums_by_coupling): the two
/// backends' coarse operators then agree to rounding, not bit for bit.
template <int Chunk, typename T>
FDSOLVE_HOST_DEVICE void galerkin_product_rows(const GalerkinProductPlain<T>& p, index_t I0,
                                               index_t I1, index_t J, index_t K) {
  using namespace galerkin_detail;
  const RowWindow r = row_window(p, I0, J, K);
  const index_t tx[3] = {0, J, K};
  const int rx_count = p.halves[0] ? 3 : 1;
  if constexpr (Chunk == 1) {
    T out[27], w[27];
    for (int m = 0; m < 27; ++m) out[m] = T(0);
    for (int n = 0; n < rx_count; ++n) {
      const index_t fx0 = p.halves[0] ? 2 * I0 - 1 + n : I0, fx = image(p, 0, fx0);
      const T rx = weight_of(p, 0, fx0, I0, tx);
      if (rx == T(0)) continue;
      position_sums_by_coupling(p, r, fx, w);
      fold_position(p, r, I0, fx, rx, w, out);
    }
    store_row(p, I0, J, K, out);
  } else {
    // The fine x positions that the chunk's R reads (their images among them).
    constexpr int kPositions = 2 * Chunk + 1;
    const index_t x0 = p.halves[0] ? 2 * I0 - 1 : I0;
    const index_t x1 = p.halves[0] ? 2 * I1 - 1 : I1 - 1;  // last, inclusive
    T W[kPositions][27];
    for (index_t x = x0; x <= x1; ++x) position_sums(p, r, x, W[x - x0]);
    for (index_t I = I0; I < I1; ++I) {
      T out[27];
      for (int m = 0; m < 27; ++m) out[m] = T(0);
      for (int n = 0; n < rx_count; ++n) {
        const index_t fx0 = p.halves[0] ? 2 * I - 1 + n : I, fx = image(p, 0, fx0);
        const T rx = weight_of(p, 0, fx0, I, tx);
        if (rx == T(0)) continue;
        fold_position(p, r, I, fx, rx, W[fx - x0], out);
      }
      store_row(p, I, J, K, out);
    }
  }
}

}  // namespace fdsolve
