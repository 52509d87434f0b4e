// See balance.hpp; the definitions and the identity they obey are in docs/numerics.md
// "Integrals and fluxes".
#include "balance.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "problem/finite_inputs.hpp"
#include "problem/problem_setup.hpp"

namespace fdsolve {
namespace {

/// Rows (y, z lines of nodes) per share of the sums: shares are fixed by the grid, not by the
/// threads, and added in order, so the sums do not depend on the thread count.
constexpr index_t kRowsPerShare = 64;

/// The layer of this rank's nodes on face `face` (an owned box one node thick).
Box owned_face_layer(const Subdomain& sub, int face) {
  Box box{{0, 0, 0}, {sub.n[0], sub.n[1], sub.n[2]}};
  const int a = face / 2;
  if (face % 2 == 0)
    box.hi[a] = 1;
  else
    box.lo[a] = sub.n[a] - 1;
  return box;
}

bool box_holds(const Box& b, index_t i, index_t j, index_t k) {
  return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] &&
         k < b.hi[2];
}

}  // namespace

bool measures_balance(const Case& c) {
  return c.problem.equation != Equation::Custom && c.stencil.points <= 7;
}

Balance::Balance(const Case& c, const Subdomain& sub, std::shared_ptr<const op::Medium> medium)
    : c_(c), sub_(sub), medium_(std::move(medium)), dims_(c.grid.dims) {
  regions_ = op::Medium::held_columns(c.problem.fixed.size());
  for (int a = 0; a < dims_; ++a) {
    h_[a] = c.grid.spacing(a);
    volume_ *= h_[a];
  }
  source_ = c.problem.equation == Equation::Poisson || c.problem.equation == Equation::Heat;
  for (int face = 0; face < 2 * dims_; ++face) {
    if (!sub_.physical(face) || c.grid.periodic[face / 2]) continue;
    const BoundaryCondition& bc = c.boundary[face];
    if (bc.type == BoundaryType::Dirichlet && source_)
      source_boxes_.push_back({&c.problem.source, owned_face_layer(sub_, face), {}, -1});
    if (bc.type == BoundaryType::Neumann)
      gradient_[face] = {&bc.gradient, owned_face_layer(sub_, face), {}, -1};
    if (bc.type == BoundaryType::Robin)
      gradient_[face] = {&bc.ambient, owned_face_layer(sub_, face), {}, -1};
  }
  if (source_ && medium_->holds()) {
    // The box around this rank's held nodes.
    Box held{{sub.n[0], sub.n[1], sub.n[2]}, {0, 0, 0}};
    for (index_t k = 0; k < sub.n[2]; ++k)
      for (index_t j = 0; j < sub.n[1]; ++j)
        for (index_t i = 0; i < sub.n[0]; ++i)
          if (medium_->held[medium_->index(i + sub.offset[0], j + sub.offset[1],
                                           k + sub.offset[2])]) {
            const index_t at[3] = {i, j, k};
            for (int a = 0; a < 3; ++a) {
              held.lo[a] = std::min(held.lo[a], at[a]);
              held.hi[a] = std::max(held.hi[a], at[a] + 1);
            }
          }
    if (!held.empty()) source_boxes_.push_back({&c.problem.source, held, {}, -1});
  }
}

void Balance::refresh(BoxValues& v, double t) {
  if (!v.value || (v.time >= 0 && (!v.value->uses_time || v.time == t))) return;
  v.time = t;
  try {
    v.at = box_values<double>(c_, *v.value, v.box, t, sub_);
  } catch (const NonFiniteValue&) {
    // The iteration reports a non-finite input where it evaluates it (the run's divergence);
    // the balance of this check is then not a number.
    v.at.assign(static_cast<std::size_t>(v.box.cells()), std::numeric_limits<double>::quiet_NaN());
  }
}

double Balance::face_beta(const index_t* at, int axis, int step) const {
  const op::Medium& m = *medium_;
  if (!m.varies()) return m.constant;
  const index_t n = sub_.global[axis];
  std::array<index_t, 3> nb{at[0], at[1], at[2]};
  nb[axis] = (nb[axis] + step + n) % n;
  if (m.by_cells()) {
    std::array<index_t, 3> lower{at[0], at[1], at[2]};
    if (step < 0) lower = nb;
    return m.face_beta(axis, lower);
  }
  const double x = m.beta[m.index(at[0], at[1], at[2])], y = m.beta[m.index(nb[0], nb[1], nb[2])];
  return 2.0 * x * y / (x + y);  // as op::fine_flux_level forms the faces
}

template <typename T>
std::vector<double> Balance::measure(const T* u, const Layout& L, double t) {
  for (BoxValues& v : source_boxes_) refresh(v, t);
  for (BoxValues& v : gradient_) refresh(v, t);
  const op::Medium& m = *medium_;
  const auto& N = sub_.global;
  const auto& off = sub_.offset;
  const index_t rows = sub_.n[1] * sub_.n[2];
  const index_t shares = (rows + kRowsPerShare - 1) / kRowsPerShare;
  const std::size_t width = columns();
  std::vector<double> share(static_cast<std::size_t>(shares) * width, 0.0);
  const int faces = 2 * dims_;

#pragma omp parallel for schedule(static)
  for (index_t s = 0; s < shares; ++s) {
    double* part = share.data() + static_cast<std::size_t>(s) * width;
    const index_t last = std::min(rows, (s + 1) * kRowsPerShare);
    for (index_t row = s * kRowsPerShare; row < last; ++row) {
      const index_t j = row % sub_.n[1], k = row / sub_.n[1];
      for (index_t i = 0; i < sub_.n[0]; ++i) {
        const index_t local[3] = {i, j, k};
        const index_t global[3] = {i + off[0], j + off[1], k + off[2]};
        // The node's share of its cell along each axis: 1/2 on a face that is not periodic.
        double weight_along[3] = {1, 1, 1};
        int on_face[3] = {-1, -1, -1};  // the face of each axis the node lies on
        double w = 1;
        for (int a = 0; a < dims_; ++a) {
          if (c_.grid.periodic[a]) continue;
          if (global[a] == 0) on_face[a] = 2 * a;
          if (global[a] == N[a] - 1) on_face[a] = 2 * a + 1;
          if (on_face[a] >= 0) {
            weight_along[a] = 0.5;
            w *= 0.5;
          }
        }
        const double value = static_cast<double>(u[L.at(i, j, k)]);
        const index_t node = m.index(global[0], global[1], global[2]);
        // The heat content c u (c = 1 multiplies exactly: the integral of u without a capacity).
        part[0] += w * volume_ * m.capacity_at(node) * value;
        const std::uint8_t held = m.holds() ? m.held[node] : 0;
        if (on_face[0] < 0 && on_face[1] < 0 && on_face[2] < 0 && !held) continue;

        // Neumann faces: the prescribed outward flux -beta g over the node's part of the face;
        // Robin faces: h (u - ambient) over it, the scheme's own term (robin_faces.hpp).
        double neumann = 0;
        int dirichlet = 0;
        for (int a = 0; a < dims_; ++a) {
          const int face = on_face[a];
          if (face < 0) continue;
          if (c_.boundary[face].type == BoundaryType::Dirichlet) {
            ++dirichlet;
            continue;
          }
          const BoundaryCondition& bc = c_.boundary[face];
          const double flux =
              bc.type == BoundaryType::Robin
                  ? 2.0 * w * volume_ / h_[a] * bc.h * (value - gradient_[face](i, j, k))
                  : -2.0 * w * volume_ / h_[a] * face_beta(global, a, face % 2 == 0 ? 1 : -1) *
                        gradient_[face](i, j, k);
          part[1 + face] += flux;
          neumann += flux;
        }
        if (!dirichlet && !held) continue;

        // A Dirichlet or held node: what its cell's balance leaves for the boundary or the
        // region to take, its source less the flux to its neighbours and through Neumann faces.
        double to_neighbours = 0;
        for (int a = 0; a < dims_; ++a) {
          for (const int step : {-1, 1}) {
            index_t at[3] = {local[0], local[1], local[2]};
            at[a] += step;
            const int face = 2 * a + (step > 0);
            if (at[a] < 0 || at[a] >= sub_.n[a]) {
              if (sub_.exchanged[face]) {
                // The halo holds the neighbouring rank's node.
              } else if (c_.grid.periodic[a]) {
                at[a] = (at[a] + sub_.n[a]) % sub_.n[a];  // this rank holds the whole axis
              } else {
                continue;  // a physical face: no neighbour
              }
            }
            const double coupling = face_beta(global, a, step) * volume_ /
                                    (h_[a] * h_[a]) * (w / weight_along[a]);
            to_neighbours += coupling * (value - static_cast<double>(u[L.at(at[0], at[1], at[2])]));
          }
        }
        double f = 0;
        if (source_)
          for (const BoxValues& box : source_boxes_)
            if (box_holds(box.box, i, j, k)) {
              f = box(i, j, k);
              break;
            }
        const double taken = w * volume_ * f - to_neighbours - neumann;
        if (dirichlet) {
          // A node on several Dirichlet faces (an edge, a corner) shares its flux evenly.
          for (int a = 0; a < dims_; ++a)
            if (on_face[a] >= 0 && c_.boundary[on_face[a]].type == BoundaryType::Dirichlet)
              part[1 + on_face[a]] += taken / dirichlet;
        } else {
          part[1 + faces + (held - 1)] += taken;
        }
      }
    }
  }
  std::vector<double> total(width, 0.0);
  for (index_t s = 0; s < shares; ++s)
    for (std::size_t col = 0; col < width; ++col)
      total[col] += share[static_cast<std::size_t>(s) * width + col];
  return total;
}

std::vector<double> Balance::merge(const parallel::Comm& comm, const std::vector<double>& mine) {
  if (!comm.several()) return mine;
  const std::vector<char> all = comm.allgather(mine.data(), mine.size() * sizeof(double));
  std::vector<double> total(mine.size(), 0.0);
  for (int r = 0; r < comm.size(); ++r)
    for (std::size_t col = 0; col < mine.size(); ++col) {
      double v = 0;
      std::memcpy(&v, all.data() + (static_cast<std::size_t>(r) * mine.size() + col) * sizeof v,
                  sizeof v);
      total[col] += v;
    }
  return total;
}

template std::vector<double> Balance::measure<float>(const float*, const Layout&, double);
template std::vector<double> Balance::measure<double>(const double*, const Layout&, double);

}  // namespace fdsolve
