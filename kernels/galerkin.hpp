// The steps of multigrid's Galerkin coarse operators R A P on the backend besides forming the
// rows (galerkin_product.hpp). Collapse ends a level: each node's summed coupling toward the
// next node on every axis is the face coefficient that the next, flux-continuous, prolongation
// reads; HeldRows makes held rows (centre -1, others 0). Colour and Extract probe the operator,
// the reference the rows are tested against: for each of the 3^dims colours (node index mod 3
// per axis) the coarse field that is 1 on the nodes of that colour (Colour), taken through P,
// the fine operator and R; each coarse node's result is then its coefficient of the one node of
// that colour among its neighbours (Extract), since R A P couples a coarse node with its 3^dims
// neighbours only (nested levels).
#pragma once

#include <array>

#include "flux_operator.hpp"
#include "grid_strides.hpp"
#include "layout.hpp"

namespace fdsolve {

enum class GalerkinOp { Colour, Extract, Collapse, HeldRows };

template <typename T>
struct GalerkinArgs {
  GalerkinOp op = GalerkinOp::Colour;
  Layout layout;
  Box box;                            // the level's unknowns (Dirichlet nodes out)
  std::array<int, 3> colour{0, 0, 0};  // Colour, Extract
  const T* held = nullptr;  // negative where a node is held (null: none); not `faces`
  const T* in = nullptr;    // Extract: R A P of the colour's field
  T* out = nullptr;         // Colour: the field (every owned node written)
  T* stencil = nullptr;     // Extract, Collapse: 3^dims arrays, `stride` apart
  index_t stride = 0;
  T* faces[3] = {nullptr, nullptr, nullptr};  // Collapse: per axis, the coupling to node + e_a
  std::array<bool, 3> periodic{false, false, false};
};

/// GalerkinArgs as plain scalars for device code.
template <typename T>
struct GalerkinPlain {
  int op, dims;
  GridStrides s;
  index_t n[3], lo[3], hi[3];
  int colour[3];
  const T* held;
  const T* in;
  T* out;
  T* stencil;
  index_t stride;
  T* faces[3];
  bool periodic[3];
};

template <typename T>
GalerkinPlain<T> galerkin_plain(const GalerkinArgs<T>& a) {
  GalerkinPlain<T> p{};
  p.op = static_cast<int>(a.op);
  p.dims = a.layout.dims;
  p.s = strides_of(a.layout);
  for (int d = 0; d < 3; ++d) {
    p.n[d] = a.layout.n[d];
    p.lo[d] = a.box.lo[d];
    p.hi[d] = a.box.hi[d];
    p.colour[d] = a.colour[d];
    p.faces[d] = a.faces[d];
    p.periodic[d] = a.periodic[d];
  }
  p.held = a.held;
  p.in = a.in;
  p.out = a.out;
  p.stencil = a.stencil;
  p.stride = a.stride;
  return p;
}

/// Whether owned node (i, j, k) is in the box.
FDSOLVE_HOST_DEVICE bool galerkin_in_box(const index_t lo[3], const index_t hi[3],
                                                index_t i, index_t j, index_t k) {
  return i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
}

/// The stencil array index of the neighbour of (i, j, k) that has colour `c`.
FDSOLVE_HOST_DEVICE int galerkin_offset_index(const int c[3], index_t i, index_t j,
                                                     index_t k, int dims) {
  const index_t at[3] = {i, j, k};
  int o = 0, weight = 1;
  for (int a = 0; a < dims; ++a) {
    const index_t r = ((c[a] - at[a]) % 3 + 3) % 3;  // 0, 1, 2: offset 0, +1, -1
    o += static_cast<int>(r == 2 ? 0 : r == 0 ? 1 : 2) * weight;
    weight *= 3;
  }
  return o;
}

/// One owned node (i, j, k) of the operation (see the top of this file).
template <typename T>
FDSOLVE_HOST_DEVICE void galerkin_node(const GalerkinPlain<T>& p, index_t i, index_t j,
                                       index_t k) {
  const index_t at = p.s.at(i, j, k);
  const bool inside = galerkin_in_box(p.lo, p.hi, i, j, k);
  const bool held = p.held && p.held[at] < T(0);
  if (p.op == static_cast<int>(GalerkinOp::Colour)) {
    // Every owned node, Dirichlet and held ones too: their couplings are the faces the next
    // prolongation reads beside them (their corrections stay zero in the cycles).
    const index_t idx[3] = {i, j, k};
    bool mine = true;
    for (int a = 0; a < p.dims; ++a) mine = mine && ((idx[a] - p.colour[a]) % 3 + 3) % 3 == 0;
    p.out[at] = mine ? T(1) : T(0);
    return;
  }
  if (p.op == static_cast<int>(GalerkinOp::Extract)) {
    if (inside) p.stencil[galerkin_offset_index(p.colour, i, j, k, p.dims) * p.stride + at] = p.in[at];
    return;
  }
  if (p.op == static_cast<int>(GalerkinOp::HeldRows)) {
    if (!inside || !held) return;
    const int points = p.dims == 2 ? 9 : 27;
    for (int o = 0; o < points; ++o) p.stencil[o * p.stride + at] = T(0);
    p.stencil[(p.dims == 2 ? 4 : 13) * p.stride + at] = T(-1);
    return;
  }
  // Collapse: the coupling across each face, from the rows on both sides that are unknowns.
  const int points = p.dims == 2 ? 9 : 27;
  const int centre = p.dims == 2 ? 4 : 13;
  for (int a = 0; a < p.dims; ++a) {
    index_t nb[3] = {i, j, k};
    nb[a] += 1;
    if (nb[a] >= p.n[a] && p.periodic[a]) nb[a] = 0;
    const bool nb_owned = nb[a] < p.n[a];
    const index_t nb_at = nb_owned ? p.s.at(nb[0], nb[1], nb[2]) : at;
    const bool nb_inside = nb_owned && galerkin_in_box(p.lo, p.hi, nb[0], nb[1], nb[2]) &&
                           !(p.held && p.held[nb_at] < T(0));
    T up = T(0), down = T(0);
    int sides = 0;
    for (int o = 0; o < points; ++o) {
      const int d = o / (a == 0 ? 1 : a == 1 ? 3 : 9) % 3 - 1;
      if (d == 1 && inside && !held) up -= p.stencil[o * p.stride + at];
      if (d == -1 && nb_inside) down -= p.stencil[o * p.stride + nb_at];
    }
    sides = int(inside && !held) + int(nb_inside);
    T face = sides == 2 ? T(0.5) * (up + down) : sides == 1 ? up + down : T(1);
    const T floor_value = T(1e-6) * (inside && !held ? p.stencil[centre * p.stride + at] : T(1));
    p.faces[a][at] = face > floor_value ? face : floor_value;
  }
}

}  // namespace fdsolve
