// The variable-coefficient operator in flux form (docs/numerics.md, "Variable coefficients"):
//
//   (A u)_i = alpha u_i + sum over axes a of c_a (beta_{i-1/2} (u_i - u_{i-e_a})
//                                               + beta_{i+1/2} (u_i - u_{i+e_a})),
//
// c_a = scale / h_a^2, with the face coefficients stored per node: face[a][i] is the coefficient
// of the face between node i and node i + e_a (the harmonic mean of the two node values on the
// fine grid, averages of fine faces on coarse ones). One sweep forms r = f - A u and writes
//
//   out = keep u + (step s_i + relax / D_i) r,    D_i = alpha + d_i + sum of the 2 dims c_a beta_f,
//
// d_i the optional per-node diagonal (FluxOperator::diagonal, 0 without it), which (A u)_i also
// gains as d_i u_i: terms that sit on a node's own diagonal and vary from node to node.
//
// which covers every use: Jacobi (keep 1, relax omega), the residual (keep 0, step 1), an
// explicit heat step (keep 1, step dt; s_i = 1 / c_i with a heat capacity that varies), and A u
// itself (keep 0, step -1, f = 0). s_i is 1 unless step_scale is set.
//
// With a constant coefficient and held nodes, the 19- and 27-point stencils take a third form
// (FluxOperator::neighbour, neighbour_residual): the stencil's constant neighbour couplings, the
// coefficient and the held mark read from the faces as in the face form.
//
// Held nodes (Dirichlet faces inside the domain: problem.fixed, and the coarse nodes under
// them) carry a negative +x face coefficient (coefficients are > 0); every read takes the
// magnitude.
// A held node is not updated: out = keep u (its value kept, or zero in a residual).
// Plain types only; the per-node rule is FDSOLVE_HOST_DEVICE so both backends compute the
// same formula from one definition.
#pragma once

#include <array>

#include "grid_strides.hpp"
#include "host_device.hpp"
#include "layout.hpp"

namespace fdsolve {

/// The operator's data and the update a sweep writes (see above). Inactive (face[0] null): the
/// sweep uses its constant StencilWeights.
template <typename T>
struct FluxOperator {
  const T* face[3] = {nullptr, nullptr, nullptr};  // same layout as the field, halo filled
  std::array<double, 3> c{0, 0, 0};                // scale / h_a^2
  double alpha = 0;
  double keep = 1;
  double step = 0;
  double relax = 1;
  /// The general form instead of faces (multigrid's Galerkin coarse operators): 3^dims arrays
  /// of the layout, `stencil_stride` elements apart, array o = (dz+1) 9 + (dy+1) 3 + (dx+1)
  /// holding each node's coefficient of u at offset (dx, dy, dz), the centre its diagonal;
  /// (A u)_i = sum over o of S_o u_(i+o) (alpha and c unused). Held rows: centre -1, others 0.
  const T* stencil = nullptr;
  index_t stencil_stride = 0;
  /// The constant 19- or 27-point stencil instead of faces (3D, equal spacing; see
  /// neighbour_residual): per neighbour class (face, edge, corner) the coupling k of
  /// (A u)_i = alpha u_i + |face[0]_i| sum over nb k_class(nb) (u_i - u_nb), the coefficient and
  /// the held sign read from face[0] as in the face form. All zero: the face form.
  std::array<double, 3> neighbour{0, 0, 0};
  /// Per node (the field's layout), the factor s_i of `step` (explicit heat with a capacity
  /// that varies: 1 / c_i); null: 1 at every node.
  const T* step_scale = nullptr;
  /// Per node, same layout as the field: added to the diagonal, so D_i and (A u)_i both gain
  /// diagonal[i] u_i (the diagonal entry is alpha + diagonal[i] + the faces'; in the general form
  /// the centre + diagonal[i]). Null: none. Every form reads it.
  const T* diagonal = nullptr;
  bool active() const { return face[0] != nullptr || stencil != nullptr; }
};

/// The centre's array index in the general form.
inline int stencil_centre(int dims) { return dims == 2 ? 4 : 13; }

/// The same as scalars of T for device code.
template <typename T>
struct FluxPlain {
  const T* fx;  // general form: the centre array (its sign marks held rows)
  const T* fy;
  const T* fz;
  /// The face form's scale / h_a^2; in the neighbour-class form its face, edge and corner
  /// couplings (FluxOperator::neighbour), so that the struct, a kernel parameter, keeps its size.
  T cx, cy, cz, alpha, keep, step, relax;
  int dims;
  int classes;  // the neighbour-class form (in the padding before pitch)
  index_t pitch, plane;
  const T* st;  // general form, else null
  index_t st_stride;
  const T* ss;  // FluxOperator::step_scale, or null
  const T* dg;  // FluxOperator::diagonal, else null
};

template <typename T>
FluxPlain<T> flux_plain(const FluxOperator<T>& op, const Layout& L) {
  const T* centre = op.stencil ? op.stencil + stencil_centre(L.dims) * op.stencil_stride : nullptr;
  const bool classes = op.neighbour[0] != 0.0;
  const std::array<double, 3>& k = classes ? op.neighbour : op.c;
  return {op.stencil ? centre : op.face[0],
          op.face[1],
          op.face[2],
          T(k[0]),
          T(k[1]),
          T(k[2]),
          T(op.alpha),
          T(op.keep),
          T(op.step),
          T(op.relax),
          L.dims,
          classes ? 1 : 0,
          L.pitch,
          L.plane,
          op.stencil,
          op.stencil_stride,
          op.step_scale,
          op.diagonal};
}

/// The factor of `step` at node `at` (FluxOperator::step_scale; 1 without one).
template <typename T>
FDSOLVE_HOST_DEVICE T flux_step_scale(const FluxPlain<T>& p, index_t at) {
  return p.ss ? p.ss[at] : T(1);
}

/// Whether node `at` is held (a negative +x face).
template <typename T>
FDSOLVE_HOST_DEVICE bool flux_held(const FluxPlain<T>& p, index_t at) {
  return p.fx[at] < T(0);
}

/// The per-node diagonal term at `at` (FluxOperator::diagonal), 0 without one.
template <typename T>
FDSOLVE_HOST_DEVICE T flux_extra_diagonal(const FluxPlain<T>& p, index_t at) {
  return p.dg ? p.dg[at] : T(0);
}

/// |v|, exact on host and device. On the host the builtin clears the sign bit (a branch-free
/// instruction a vectorised loop can take; a comparison there stops GCC's vectoriser).
template <typename T>
FDSOLVE_HOST_DEVICE T flux_magnitude(T v) {
#ifdef __CUDA_ARCH__
  return v < T(0) ? -v : v;
#else
  if constexpr (sizeof(T) == sizeof(float))
    return __builtin_fabsf(v);
  else
    return __builtin_fabs(v);
#endif
}

/// The residual f - A u at node `at` and the diagonal D.
template <typename T>
struct FluxResidual {
  T r;
  T diag;
  T l1 = T(0);  // general form: the row's sum of |S_o| (0 for faces)
};

/// The residual of the general form (FluxOperator::stencil).
template <typename T>
FDSOLVE_HOST_DEVICE FluxResidual<T> stencil_residual(const T* u, const FluxPlain<T>& p,
                                                     index_t at, T f) {
  const int centre = p.dims == 2 ? 4 : 13;
  T sum = T(0), l1 = T(0);
  // The offsets in array order (o ascending), without a division per point.
  const int planes = p.dims == 3 ? 3 : 1;
  for (int z = 0; z < planes; ++z) {
    const index_t dz = p.dims == 3 ? z - 1 : 0;
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) {
        const int o = z * 9 + y * 3 + x;
        if (o == centre) continue;
        const index_t off = (x - 1) + (y - 1) * p.pitch + dz * p.plane;
        const T s = p.st[o * p.st_stride + at];
        sum += s * u[at + off];
        l1 += flux_magnitude(s);
      }
  }
  const T diag = p.st[centre * p.st_stride + at] + flux_extra_diagonal(p, at);
  return {f - (diag * u[at] + sum), diag, l1 + diag};
}

/// A node's face coefficients (magnitudes) and neighbour values, already loaded: the face form's
/// formula on registers, shared by every kernel shape so that they compute the same bits.
template <typename T>
struct FluxStencilValues {
  T u, f;
  T bw, be, uw, ue;  // x: the -x and +x faces and neighbours
  T bs, bn, us, un;  // y
  T bd{}, bu{}, ud{}, uu{};  // z (3D only)
  T step_scale = T(1);       // the node's factor of `step` (flux_step_scale)
  T d{};  // the per-node diagonal term (FluxOperator::diagonal), 0 without one
};

/// Dims known at compile time: no branch in a vectorised or unrolled loop. `P`: FluxPlain, or
/// a kernel's own smaller parameter struct with the same scalars (alpha, cx, cy, cz).
template <int Dims, typename T, typename P>
FDSOLVE_HOST_DEVICE FluxResidual<T> flux_face_residual(const FluxStencilValues<T>& v, const P& p) {
  T diag = p.alpha + v.d + p.cx * (v.bw + v.be) + p.cy * (v.bs + v.bn);
  T nb = p.cx * (v.bw * v.uw + v.be * v.ue) + p.cy * (v.bs * v.us + v.bn * v.un);
  if constexpr (Dims == 3) {
    diag += p.cz * (v.bd + v.bu);
    nb += p.cz * (v.bd * v.ud + v.bu * v.uu);
  }
  return {v.f - (diag * v.u - nb), diag};
}

template <typename T>
FDSOLVE_HOST_DEVICE FluxResidual<T> flux_face_residual(const FluxStencilValues<T>& v,
                                                       const FluxPlain<T>& p) {
  return p.dims == 3 ? flux_face_residual<3>(v, p) : flux_face_residual<2>(v, p);
}

/// The residual of the neighbour-class form (FluxOperator::neighbour): each class's neighbours
/// summed in a fixed order, then the classes weighted, as the constant stencils group them.
template <typename T>
FDSOLVE_HOST_DEVICE FluxResidual<T> neighbour_residual(const T* u, const FluxPlain<T>& p,
                                                       index_t at, T f) {
  const index_t px = 1, py = p.pitch, pz = p.plane;
  const T faces = (u[at - px] + u[at + px]) + (u[at - py] + u[at + py]) + (u[at - pz] + u[at + pz]);
  T edges = T(0);
  for (int s1 = -1; s1 <= 1; s1 += 2)
    for (int s2 = -1; s2 <= 1; s2 += 2)
      edges += (u[at + s1 * px + s2 * py] + u[at + s1 * px + s2 * pz]) + u[at + s1 * py + s2 * pz];
  T corners = T(0);
  if (p.cz != T(0))  // corners: 27 points
    for (int sz = -1; sz <= 1; sz += 2)
      for (int sy = -1; sy <= 1; sy += 2)
        corners += u[at - px + sy * py + sz * pz] + u[at + px + sy * py + sz * pz];
  const T kf = p.cx, ke = p.cy, kc = p.cz;  // the class couplings (FluxPlain)
  const T beta = flux_magnitude(p.fx[at]);
  const T diag = p.alpha + flux_extra_diagonal(p, at) + beta * (T(6) * kf + T(12) * ke + T(8) * kc);
  const T nb = beta * (kf * faces + ke * edges + kc * corners);
  return {f - (diag * u[at] - nb), diag};
}

/// The face form's residual at node `at`; `PerNode`: the operator may have a per-node diagonal;
/// `Dims` 2 or 3 where known at compile time, else 0.
template <bool PerNode, int Dims, typename T>
FDSOLVE_HOST_DEVICE FluxResidual<T> face_residual_at(const T* u, const FluxPlain<T>& p,
                                                     index_t at, T f) {
  FluxStencilValues<T> v;
  v.u = u[at];
  v.f = f;
  if constexpr (PerNode) v.d = flux_extra_diagonal(p, at);
  v.bw = flux_magnitude(p.fx[at - 1]);
  v.be = flux_magnitude(p.fx[at]);
  v.uw = u[at - 1];
  v.ue = u[at + 1];
  v.bs = flux_magnitude(p.fy[at - p.pitch]);
  v.bn = flux_magnitude(p.fy[at]);
  v.us = u[at - p.pitch];
  v.un = u[at + p.pitch];
  if (Dims == 3 || (Dims == 0 && p.dims == 3)) {
    v.bd = flux_magnitude(p.fz[at - p.plane]);
    v.bu = flux_magnitude(p.fz[at]);
    v.ud = u[at - p.plane];
    v.uu = u[at + p.plane];
  }
  if constexpr (Dims == 0)
    return flux_face_residual(v, p);
  else
    return flux_face_residual<Dims>(v, p);
}

template <typename T>
FDSOLVE_HOST_DEVICE FluxResidual<T> flux_residual(const T* u, const FluxPlain<T>& p, index_t at,
                                                  T f) {
  if (p.st) return stencil_residual(u, p, at, f);
  if (p.classes) return neighbour_residual(u, p, at, f);
  return face_residual_at<true, 0>(u, p, at, f);
}

/// Whether `p` is the face form without per-node arrays (flux_update_plain_faces applies).
template <typename T>
bool plain_faces(const FluxPlain<T>& p) {
  return !p.st && !p.classes && !p.ss && !p.dg;
}

/// The face form's update of a node that is not held, from its loaded values.
template <int Dims, typename T, typename P>
FDSOLVE_HOST_DEVICE T flux_face_update(const FluxStencilValues<T>& v, const P& p) {
  const FluxResidual<T> res = flux_face_residual<Dims>(v, p);
  // step * 1 is step exactly: without a step scale the bits are those of step alone.
  return p.keep * v.u + (p.step * v.step_scale + p.relax / res.diag) * res.r;
}

/// The update of a node that is not held from its residual, `Bounded` when the relaxation of a
/// general-form row takes the l1 bound (relax != 0), else the plain form (faces, or relax 0);
/// `scale` the node's factor of step (flux_step_scale).
template <bool Bounded, typename T>
FDSOLVE_HOST_DEVICE T flux_apply_as(const FluxResidual<T>& res, T u, const FluxPlain<T>& p,
                                    T scale = T(1)) {
  if constexpr (Bounded) {
    // A Galerkin row may have positive couplings and lose diagonal dominance: relaxing by
    // max(D / omega, sum |S_o| / 2) keeps 2 D_eff - A positive definite (the l1-Jacobi bound),
    // so the smoother converges and the cycle stays a positive definite preconditioner; where
    // the row is dominant this is D / omega, plain weighted Jacobi.
    const T scaled = res.diag / p.relax, half_l1 = T(0.5) * res.l1;
    return p.keep * u + (p.step * scale + T(1) / (scaled > half_l1 ? scaled : half_l1)) * res.r;
  } else {
    return p.keep * u + (p.step * scale + p.relax / res.diag) * res.r;
  }
}

/// The value a sweep writes at a node that is not held, value u, from its residual.
template <typename T>
FDSOLVE_HOST_DEVICE T flux_apply(const FluxResidual<T>& res, T u, const FluxPlain<T>& p,
                                 T scale = T(1)) {
  return p.st && p.relax != T(0) ? flux_apply_as<true>(res, u, p, scale)
                                 : flux_apply_as<false>(res, u, p, scale);
}

/// The value a sweep writes at node `at` (see the top of this file).
template <typename T>
FDSOLVE_HOST_DEVICE T flux_update(const T* u, const FluxPlain<T>& p, index_t at, T f) {
  if (flux_held(p, at)) return p.keep * u[at];
  return flux_apply(flux_residual(u, p, at, f), u[at], p, flux_step_scale(p, at));
}

/// flux_update where plain_faces(p): the same bits (a step scale of 1, no diagonal term) without
/// the other forms' branches and loads, which cost a kernel that checks every node registers
/// and bandwidth.
template <int Dims, typename T>
FDSOLVE_HOST_DEVICE T flux_update_plain_faces(const T* u, const FluxPlain<T>& p, index_t at, T f) {
  if (flux_held(p, at)) return p.keep * u[at];
  return flux_apply_as<false>(face_residual_at<false, Dims>(u, p, at, f), u[at], p);
}

/// y = a x + b y on the nodes of a box that are not held (`held_face`: the +x face array whose
/// sign marks them; null: none is held). Conjugate gradients and the masked correction.
template <typename T>
struct LinearCombinationArgs {
  T* y = nullptr;
  const T* x = nullptr;
  double a = 1;
  double b = 1;
  const T* held_face = nullptr;
  Layout layout;
  Box box;
};

/// The inner product sum over the box of w_i a_i b_i, accumulated in double, w_i the node's
/// share of the cell volume: 1/2 for each face in `half` it lies on (the mirrored Neumann
/// faces, which make the flux operator self-adjoint in this product).
template <typename T>
struct DotArgs {
  const T* a = nullptr;
  const T* b = nullptr;
  Layout layout;
  Box box;
  std::array<bool, 6> half{};  // x_min, x_max, y_min, ...: nodes on it weigh 1/2
};

/// The weight of node (i, j, k) in DotArgs's product; n the owned nodes per axis.
FDSOLVE_HOST_DEVICE double dot_weight(const bool half[6], const index_t n[3], index_t i,
                                             index_t j, index_t k) {
  double w = 1.0;
  const index_t at[3] = {i, j, k};
  for (int a = 0; a < 3; ++a) {
    if (half[2 * a] && at[a] == 0) w *= 0.5;
    if (half[2 * a + 1] && at[a] == n[a] - 1) w *= 0.5;
  }
  return w;
}

}  // namespace fdsolve
