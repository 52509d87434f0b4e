// The coarsest level of the variable-coefficient cycles: an exact solve by a dense LU
// factorisation of the level's operator over its unknowns (held nodes and Dirichlet faces left
// out), factored once per operator and applied on the host. See flux_hierarchy.hpp.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stencil_hierarchy.hpp"
#include "cycles_detail.hpp"
#include "flux_hierarchy.hpp"
#include "level_operator.hpp"

namespace fdsolve::multigrid {

template <typename T>
void FluxHierarchy<T>::factor_coarsest() {
  const int l = coarsest();
  const LevelGeometry& g = levels_[l];
  const Layout& L = layout_[l];
  const Box& b = box_[l];
  unknown_.clear();
  std::vector<index_t> column(static_cast<std::size_t>(L.size), -1);
  bool dirichlet = held_[l] > 0;
  for (int f = 0; f < 2 * g.dims; ++f)
    dirichlet = dirichlet || g.faces[f] == BoundaryType::Dirichlet;
  // A Robin face with h > 0 fixes the level as a Dirichlet face does.
  for (T r : host_robin_) dirichlet = dirichlet || r > T(0);
  // Constants are the null space of A alone: fix one node (a capacity makes C + scale A regular).
  const bool pin = !dirichlet && alpha_ == 0 && host_capacity_.empty();
  bool pinned = false;
  for (index_t k = b.lo[2]; k < b.hi[2]; ++k)
    for (index_t j = b.lo[1]; j < b.hi[1]; ++j)
      for (index_t i = b.lo[0]; i < b.hi[0]; ++i) {
        const index_t at = L.at(i, j, k);
        if (host_face_[0][at] < T(0)) continue;
        if (pin && !pinned) {
          pinned = true;  // this node's correction stays zero
          continue;
        }
        column[at] = static_cast<index_t>(unknown_.size());
        unknown_.push_back(at);
      }
  const std::size_t n = unknown_.size();
  lu_.assign(n * n, 0.0);
  pivot_.assign(n, 0);
  const index_t stride[3] = {1, L.pitch, L.plane};
  const auto position = [&](index_t at, index_t pos[3]) {
    index_t rest = at - L.origin;
    pos[2] = g.dims == 3 ? rest / L.plane : 0;
    rest -= pos[2] * L.plane;
    pos[1] = rest / L.pitch;
    pos[0] = rest - pos[1] * L.pitch;
  };
  if (galerkin_ && l > 0) {
    // The Galerkin operator's rows: ghosts carry no coefficient (folded in when it was built).
    const int points = g.dims == 2 ? 9 : 27;
    std::vector<T> st(static_cast<std::size_t>(points * L.size));
    backend_.download(st.data(), stencil_[l], points * L.size);
    for (std::size_t row = 0; row < n; ++row) {
      const index_t at = unknown_[row];
      index_t pos[3];
      position(at, pos);
      for (int o = 0; o < points; ++o) {
        const index_t d[3] = {o % 3 - 1, o / 3 % 3 - 1, o / 9 - 1};
        index_t q[3] = {pos[0], pos[1], pos[2]};
        bool outside = false;
        for (int a = 0; a < g.dims; ++a) {
          q[a] += d[a];
          if (g.periodic[a]) q[a] = (q[a] + g.n[a]) % g.n[a];
          outside = outside || q[a] < 0 || q[a] >= g.n[a];
        }
        if (outside) continue;
        const index_t col = column[L.at(q[0], q[1], q[2])];
        if (col >= 0)
          lu_[row * n + static_cast<std::size_t>(col)] +=
              static_cast<double>(st[static_cast<std::size_t>(o * L.size + at)]);
      }
    }
  }
  for (std::size_t row = 0; row < n && !(galerkin_ && l > 0); ++row) {
    const index_t at = unknown_[row];
    index_t pos[3] = {0, 0, 0};
    position(at, pos);
    double diag = alpha_;
    if (!host_robin_.empty()) diag += scale_ * static_cast<double>(host_robin_[at]);
    if (!host_capacity_.empty()) diag += static_cast<double>(host_capacity_[at]);
    for (int a = 0; a < g.dims; ++a) {
      const double c = scale_ / (g.spacing[a] * g.spacing[a]);
      for (int side = 0; side < 2; ++side) {
        const double beta =
            std::fabs(static_cast<double>(host_face_[a][side == 0 ? at - stride[a] : at]));
        diag += c * beta;
        // The neighbour, folded back by the face rule (a mirrored ghost is the node beyond).
        index_t q = pos[a] + (side == 0 ? -1 : 1);
        const index_t na = g.n[a];
        if (q < 0 || q >= na) {
          const BoundaryType face = g.faces[2 * a + side];
          if (g.periodic[a])
            q = (q + na) % na;
          else if (face == BoundaryType::Neumann)
            q = q < 0 ? 1 : na - 2;
          else
            continue;
        }
        const index_t nb = at + (q - pos[a]) * stride[a];
        const index_t col = column[nb];
        if (col >= 0) lu_[row * n + static_cast<std::size_t>(col)] -= c * beta;
      }
    }
    lu_[row * n + row] += diag;
  }
  // LU with partial pivoting, in place.
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t r = k + 1; r < n; ++r)
      if (std::fabs(lu_[r * n + k]) > std::fabs(lu_[p * n + k])) p = r;
    pivot_[k] = static_cast<int>(p);
    if (p != k)
      for (std::size_t c = 0; c < n; ++c) std::swap(lu_[k * n + c], lu_[p * n + c]);
    if (lu_[k * n + k] == 0.0)
      throw std::runtime_error("multigrid: the coarsest grid's operator is singular");
    for (std::size_t r = k + 1; r < n; ++r) {
      const double m = lu_[r * n + k] / lu_[k * n + k];
      lu_[r * n + k] = m;
      for (std::size_t c = k + 1; c < n; ++c) lu_[r * n + c] -= m * lu_[k * n + c];
    }
  }
  host_rhs_.assign(static_cast<std::size_t>(L.size), T(0));
  host_x_.assign(static_cast<std::size_t>(L.size), T(0));
}

template <typename T>
void FluxHierarchy<T>::solve_exactly(const Buffer<T>& rhs, Buffer<T>& x) {
  if (interrupt_ && interrupt_()) throw CycleInterrupted{};
  const Layout& L = layout_[coarsest()];
  backend_.download(host_rhs_.data(), rhs, L.size);
  const std::size_t n = unknown_.size();
  std::vector<double> y(n);
  for (std::size_t r = 0; r < n; ++r) y[r] = static_cast<double>(host_rhs_[unknown_[r]]);
  // The row swaps of the factorisation (whole rows were swapped), then L and U.
  for (std::size_t k = 0; k < n; ++k) std::swap(y[k], y[static_cast<std::size_t>(pivot_[k])]);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t r = k + 1; r < n; ++r) y[r] -= lu_[r * n + k] * y[k];
  for (std::size_t k = n; k-- > 0;) {
    double s = y[k];
    for (std::size_t c = k + 1; c < n; ++c) s -= lu_[k * n + c] * y[c];
    y[k] = s / lu_[k * n + k];
  }
  std::fill(host_x_.begin(), host_x_.end(), T(0));
  for (std::size_t r = 0; r < n; ++r) host_x_[unknown_[r]] = static_cast<T>(y[r]);
  backend_.upload(x, host_x_.data(), L.size);
}

template void FluxHierarchy<float>::factor_coarsest();
template void FluxHierarchy<double>::factor_coarsest();
template void FluxHierarchy<float>::solve_exactly(const Buffer<float>&, Buffer<float>&);
template void FluxHierarchy<double>::solve_exactly(const Buffer<double>&, Buffer<double>&);

}  // namespace fdsolve::multigrid
