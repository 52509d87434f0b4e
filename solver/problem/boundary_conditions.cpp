// Boundaries: ghost rules and time-dependent boundary values (see boundary_conditions.hpp).
#include "boundary_conditions.hpp"

#include <fmt/format.h>

#include <cmath>

#include "expression.hpp"
#include "field_programs.hpp"
#include "finite_inputs.hpp"
#include "parallel/halo_exchange.hpp"
#include "problem_setup.hpp"

namespace fdsolve {
namespace {

bool is_dirichlet(const Case& c, int face) {
  return c.boundary[face].type == BoundaryType::Dirichlet;
}

/// The nodes of a face's offset array as a box of node indices (the face's own axis at its
/// boundary node, the in-face axes with their halo), and a layout whose at() is face_index:
/// what evaluate_field needs to write the gradients straight into the offsets.
std::pair<Box, Layout> offsets_box(const Layout& L, const HaloAxis& h, index_t boundary) {
  const index_t q_halo = h.q_axis < L.dims ? 1 : 0;
  Box b;
  b.lo[h.axis] = boundary;
  b.hi[h.axis] = boundary + 1;
  b.lo[h.p_axis] = -1;
  b.hi[h.p_axis] = h.n_p + 1;
  b.lo[h.q_axis] = -q_halo;
  b.hi[h.q_axis] = h.n_q + q_halo;
  Layout f;
  f.dims = L.dims;
  const index_t row = h.n_p + 2;  // face_index(p, q) = (q + q_halo) * row + p + 1
  index_t stride[3] = {1, 0, 0};
  stride[h.p_axis] = 1;
  if (h.q_axis < 3) stride[h.q_axis] = row;
  f.pitch = stride[1];
  f.plane = stride[2];
  // at(i, j, k) = origin + k * plane + j * pitch + i: the face's own axis (x on x faces, whose
  // stride is fixed at 1) is taken back out by the origin.
  f.origin = q_halo * row + 1 - (h.axis == 0 ? boundary : 0);
  f.size = h.face_size();
  return {b, f};
}

}  // namespace

template <typename T>
Boundaries<T>::Boundaries(const Case& c, Backend<T>& backend, const Layout& L)
    : Boundaries(c, backend, L, Subdomain::whole(c)) {}

template <typename T>
Boundaries<T>::Boundaries(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub)
    : c_(c), backend_(backend), L_(L), sub_(sub) {
  fill_.layout = L;
  for (int face = 0; face < 2 * c.grid.dims; ++face) {
    if (!sub.physical(face)) continue;  // a neighbouring rank fills this halo
    const BoundaryCondition& bc = c.boundary[face];
    GhostFace<T>& ghost = fill_.faces[face];
    if (bc.type == BoundaryType::Periodic) {
      ghost.rule = GhostRule::Wrap;
    } else if (bc.type == BoundaryType::Robin) {
      // The mirror of a Neumann face with gradient 0: the face's transfer term is on the flux
      // operator's diagonal and right-hand side (robin_faces.hpp), not in the ghost.
      ghost.rule = GhostRule::Mirror;
    } else if (bc.type == BoundaryType::Neumann) {
      ghost.rule = GhostRule::Mirror;
      const double two_h = 2.0 * c.grid.spacing(face / 2);
      if (bc.gradient.is_constant()) {
        ghost.offset = static_cast<T>(two_h * bc.gradient.constant);
      } else {
        offsets_[face] = backend.allocate(halo_axis(L, face / 2).face_size());
        gradient_in_time_ = gradient_in_time_ || bc.gradient.uses_time;
      }
    } else {
      dirichlet_in_time_ = dirichlet_in_time_ || bc.value.uses_time;
    }
  }
  set_gradients(0.0);
}

template <typename T>
void Boundaries<T>::set_gradients(double t) {
  gradient_time_ = t;
  for (int face = 0; face < 2 * c_.grid.dims; ++face) {
    if (offsets_[face].size() == 0) continue;
    const int axis = face / 2;
    const HaloAxis h = halo_axis(L_, axis);
    const double two_h = 2.0 * c_.grid.spacing(axis);
    // The face's own coordinate is that of its boundary node; the in-face ones run over the
    // whole offset array, halo included (face_index's layout).
    const index_t boundary = face % 2 == 0 ? 0 : L_.n[axis] - 1;
    const index_t q_halo = h.q_axis < c_.grid.dims ? 1 : 0;
    {  // on the backend, straight into the offsets (on CUDA: compiled, no upload)
      const auto [box, layout] = offsets_box(L_, h, boundary);
      FieldEvalArgs a = field_args(c_, L_, box, sub_, t, two_h);
      a.layout = layout;
      const NonFiniteNode bad =
          backend_.evaluate_field(field_program(c_.boundary[face].gradient), a, offsets_[face]);
      fill_.faces[face].offsets = offsets_[face].data();
      // A non-finite value may lie in the halo ring, which no sweep reads: the host loop
      // below finds the first owned one, if any, and names it.
      if (!bad.found) continue;
    }
    std::vector<T> values(static_cast<std::size_t>(h.face_size()));
    const Expression g(c_.boundary[face].gradient.expression);
    for (index_t q = -q_halo; q < h.n_q + q_halo; ++q)
      for (index_t p = -1; p <= h.n_p; ++p) {
        double x[3] = {0, 0, 0};
        x[axis] = node_coordinate(c_, axis, sub_.to_global(axis, boundary));
        x[h.p_axis] = node_coordinate(c_, h.p_axis, sub_.to_global(h.p_axis, p));
        if (h.q_axis < c_.grid.dims)
          x[h.q_axis] = node_coordinate(c_, h.q_axis, sub_.to_global(h.q_axis, q));
        const double v = g(x[0], x[1], x[2], t);
        // Owned nodes only: the halo's corner values are never read by a sweep.
        const bool owned = p >= 0 && p < h.n_p && q >= 0 && q < h.n_q;
        if (owned && !std::isfinite(v)) {
          std::array<index_t, 3> node{0, 0, 0};
          node[axis] = sub_.to_global(axis, boundary);
          node[h.p_axis] = sub_.to_global(h.p_axis, p);
          if (h.q_axis < c_.grid.dims) node[h.q_axis] = sub_.to_global(h.q_axis, q);
          throw NonFiniteInput(describe_nonfinite(c_, face_key(c_, face, "gradient"), v, node,
                                                  false) +
                               fmt::format(" at t = {}", t));
        }
        values[h.face_index(p, q)] = static_cast<T>(two_h * v);
      }
    backend_.upload(offsets_[face], values.data(), h.face_size());
    fill_.faces[face].offsets = offsets_[face].data();
  }
}

template <typename T>
void Boundaries<T>::before_sweep(Buffer<T>& cur, Buffer<T>& next, double t, double t_next) {
  fill_ghosts(cur, t, nullptr);
  write_dirichlet(next, t_next);
}

template <typename T>
void Boundaries<T>::before_sweep(Buffer<T>& cur, Buffer<T>& next, double t, double t_next,
                                 HaloExchange<T>& halo) {
  fill_ghosts(cur, t, halo.active() ? &halo : nullptr);
  write_dirichlet(next, t_next);
}

template <typename T>
void Boundaries<T>::gradients_at(double t) {
  if (gradient_in_time_ && t != gradient_time_) set_gradients(t);
}

template <typename T>
HaloFillArgs<T> Boundaries<T>::fills() const {
  HaloFillArgs<T> f = fill_;
  if (sweeps_write_x_) f.faces[0] = f.faces[1] = GhostFace<T>{};
  return f;
}

template <typename T>
void Boundaries<T>::fill_ghosts(Buffer<T>& field) {
  HaloFillArgs<T> f = fills();
  if (!f.any()) return;
  f.field = field.data();
  backend_.fill_halo(f);
}

template <typename T>
std::array<GhostFace<T>, 2> Boundaries<T>::sweeps_write_x_ghosts(Buffer<T>& a, Buffer<T>& b) {
  const bool x_rule = fill_.faces[0].rule != GhostRule::None ||
                      fill_.faces[1].rule != GhostRule::None;
  bool alone = true;
  for (int face = 0; face < 2 * c_.grid.dims; ++face) alone = alone && sub_.physical(face);
  if (!x_rule || time_dependent() || !alone || L_.n[0] < 3 || sweeps_write_x_) return {};
  for (Buffer<T>* f : {&a, &b}) {
    fill_.field = f->data();
    backend_.fill_halo(fill_);
  }
  sweeps_write_x_ = true;
  return {fill_.faces[0], fill_.faces[1]};
}

template <typename T>
void Boundaries<T>::fill_ghosts(Buffer<T>& field, HaloExchange<T>& halo) {
  fill_ghosts(field, gradient_time_, halo.active() ? &halo : nullptr);
}

template <typename T>
void Boundaries<T>::fill_ghosts(Buffer<T>& cur, double t, HaloExchange<T>* halo) {
  gradients_at(t);
  fill_.field = cur.data();
  HaloFillArgs<T> all = fills();
  all.field = cur.data();
  if (!halo) {
    if (all.any()) backend_.fill_halo(all);
    return;
  }
  // One axis at a time: its physical ghosts, then its exchange (which sends the earlier axes'
  // halo along with the face, completing edges and corners).
  for (int axis = 0; axis < c_.grid.dims; ++axis) {
    HaloFillArgs<T> one = all;
    for (int face = 0; face < 6; ++face)
      if (face / 2 != axis) one.faces[face] = GhostFace<T>{};
    if (one.any()) backend_.fill_halo(one);
    halo->exchange_axis(cur, axis);
  }
}

template <typename T>
void Boundaries<T>::write_dirichlet(Buffer<T>& next, double t_next) {
  if (!dirichlet_in_time_) return;
  // Every physical Dirichlet face, in face order, so the later face still wins on shared nodes.
  for (int face = 0; face < 2 * c_.grid.dims; ++face) {
    if (!is_dirichlet(c_, face) || !sub_.physical(face)) continue;
    try {  // evaluated on the backend, straight onto the face's nodes
      evaluate_value(c_, backend_, c_.boundary[face].value, L_, face_box(L_, face), sub_, 1.0,
                     t_next, next);
    } catch (const NonFiniteValue& e) {
      throw NonFiniteInput(describe_nonfinite(c_, face_key(c_, face, "value"), e.value, e.node,
                                              false) +
                           fmt::format(" at t = {}", t_next));
    }
  }
}

template class Boundaries<float>;
template class Boundaries<double>;

}  // namespace fdsolve
