// See flux_levels.hpp. The dense faces come from level_faces.cpp; here they take the sweeps'
// layout in T. Every loop over a level's nodes runs on all threads.
#include "flux_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "level_faces.hpp"
#include "problem/weights.hpp"

namespace fdsolve::op {
namespace {

using multigrid::LevelGeometry;

/// FluxLevel::diagonal of the nodes `n` of level g from `offset` (the whole level: offset 0).
template <typename T>
void add_robin(const LevelGeometry& g, const Medium& m, const std::array<index_t, 3>& n,
               const std::array<index_t, 3>& offset, FluxLevel<T>& out) {
  if (!m.robin()) return;
  const Layout& L = out.layout;
  out.diagonal = filled(L.size, T(0));
  for_rows(n, [&](index_t j, index_t k) {
    for (index_t i = 0; i < n[0]; ++i) {
      const index_t at[3] = {i + offset[0], j + offset[1], k + offset[2]};
      out.diagonal[L.at(i, j, k)] = static_cast<T>(robin_diagonal(g, m, at));
    }
  });
}

/// The held marker (a negative +x face) and count of the nodes `n` from `offset` of a level
/// whose dense held flags are `held` (null: none held) over the level grid `g`.
template <typename T>
void mark_held(const LevelGeometry& g, const std::uint8_t* held, const std::array<index_t, 3>& n,
               const std::array<index_t, 3>& offset, FluxLevel<T>& out) {
  if (!held) return;
  const Layout& L = out.layout;
  index_t count = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : count)
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i)
        if (held[dense_index(g, i + offset[0], j + offset[1], k + offset[2])]) {
          T& f = out.face[0][L.at(i, j, k)];
          f = -f;
          ++count;
        }
  out.held_count = count;
}

/// The capacity of the nodes `n` from `offset` in the level's layout (0 in the halo).
template <typename T>
void copy_capacity(const LevelGeometry& g, const double* capacity, const std::array<index_t, 3>& n,
                   const std::array<index_t, 3>& offset, FluxLevel<T>& out) {
  if (!capacity) return;
  const Layout& L = out.layout;
  out.capacity = filled(L.size, T(0));
  for_rows(n, [&](index_t j, index_t k) {
    for (index_t i = 0; i < n[0]; ++i)
      out.capacity[L.at(i, j, k)] =
          static_cast<T>(capacity[dense_index(g, i + offset[0], j + offset[1], k + offset[2])]);
  });
}

/// The faces of the nodes `n` from `offset` of level g (dense in `h`) in the layout of `out`:
/// along axis a from face -1 (below the first node, folded by the face rule) to n_a - 1; 1 in
/// the rest of the halo. `fold_last`: the last face of a non-periodic axis (which no sweep
/// reads) folds too, as every face of a rank's part does; otherwise it keeps its dense value.
template <typename T>
void layout_faces(const LevelGeometry& g, const HostLevel& h, const std::array<index_t, 3>& n,
                  const std::array<index_t, 3>& offset, bool fold_last, FluxLevel<T>& out) {
  const Layout& L = out.layout;
  for (int a = 0; a < g.dims; ++a) {
    HostArray<T>& face = out.face[a];
    face = filled(L.size, T(1));
    std::array<index_t, 3> lo{0, 0, 0};
    lo[a] = -1;  // the face below the first node
    for_rows(lo, n, [&](index_t j, index_t k) {
      for (index_t i = lo[0]; i < n[0]; ++i) {
        index_t global[3] = {i + offset[0], j + offset[1], k + offset[2]};
        if (global[a] < 0 || fold_last) global[a] = fold_face(g, a, global[a]);
        face[L.at(i, j, k)] =
            static_cast<T>(h.face[a][dense_index(g, global[0], global[1], global[2])]);
      }
    });
  }
  if (g.dims == 2) out.face[2] = out.face[1];  // unread in 2D; keeps the pointers valid
}

template <typename T>
FluxLevel<T> to_layout(const LevelGeometry& g, const HostLevel& h) {
  FluxLevel<T> out;
  out.layout = g.layout(sizeof(T));
  layout_faces(g, h, g.n, {0, 0, 0}, false, out);
  mark_held(g, h.held, g.n, {0, 0, 0}, out);
  copy_capacity(g, h.capacity, g.n, {0, 0, 0}, out);
  return out;
}

}  // namespace

double robin_diagonal(const LevelGeometry& g, const Medium& m, const index_t at[3]) {
  double sum = 0;
  for (int a = 0; a < g.dims; ++a) {
    if (g.periodic[a]) continue;
    const bool lo = at[a] == 0, hi = at[a] == g.n[a] - 1;
    // A node on a Dirichlet face is held by it (Dirichlet wins).
    if ((lo && g.faces[2 * a] == BoundaryType::Dirichlet) ||
        (hi && g.faces[2 * a + 1] == BoundaryType::Dirichlet))
      return 0.0;
    if (lo && m.robin_face[2 * a]) sum += 2.0 * m.robin_h[2 * a] / g.spacing[a];
    if (hi && m.robin_face[2 * a + 1]) sum += 2.0 * m.robin_h[2 * a + 1] / g.spacing[a];
  }
  return sum;
}

template <typename T>
std::vector<FluxLevel<T>> flux_levels(const std::vector<LevelGeometry>& levels, const Medium& m) {
  std::vector<FluxLevel<T>> out;
  HostLevel h = fine_level_faces(levels[0], m);
  out.push_back(to_layout<T>(levels[0], h));
  add_robin(levels[0], m, levels[0].n, {0, 0, 0}, out.back());
  for (std::size_t l = 1; l < levels.size(); ++l) {
    h = coarse_level_faces(levels[l - 1], h, levels[l]);
    out.push_back(to_layout<T>(levels[l], h));
    add_robin(levels[l], m, levels[l].n, {0, 0, 0}, out.back());
  }
  return out;
}

template <typename T>
FluxLevel<T> fine_flux_level(const LevelGeometry& g, const Medium& m, const Subdomain& sub) {
  const HostLevel h = fine_level_faces(g, m);
  FluxLevel<T> out;
  out.layout = Layout::make(g.dims, sub.n, static_cast<index_t>(128 / sizeof(T)));
  layout_faces(g, h, sub.n, sub.offset, true, out);
  mark_held(g, h.held, sub.n, sub.offset, out);
  add_robin(g, m, sub.n, sub.offset, out);
  copy_capacity(g, h.capacity, sub.n, sub.offset, out);  // this rank's part of the capacity
  return out;
}

template <typename T>
FluxLevel<T> fine_diagonal_terms(const LevelGeometry& g, const Medium& m, const Subdomain& sub) {
  FluxLevel<T> out;
  out.layout = Layout::make(g.dims, sub.n, static_cast<index_t>(128 / sizeof(T)));
  copy_capacity(g, m.capacity.empty() ? nullptr : m.capacity.data(), sub.n, sub.offset, out);
  add_robin(g, m, sub.n, sub.offset, out);
  return out;
}

template <typename T>
HostArray<T> inverse_capacity(const Medium& m, const Layout& L, const Subdomain& sub) {
  HostArray<T> out = filled(L.size, T(0));
  for_rows(sub.n, [&](index_t j, index_t k) {
    for (index_t i = 0; i < sub.n[0]; ++i)
      out[L.at(i, j, k)] = static_cast<T>(
          1.0 / m.capacity_at(m.index(i + sub.offset[0], j + sub.offset[1], k + sub.offset[2])));
  });
  return out;
}

std::array<double, 3> neighbour_couplings(const LevelGeometry& g, double scale) {
  if (g.points_stencil <= 7) return {0, 0, 0};
  // -lap u = (u - sum w u_nb) / s with sum w = 1: the coupling of a neighbour is w / s.
  const EquationWeights e = laplacian_weights(g.points_stencil, g.dims, g.spacing);
  return {scale * e.weights.face[0] / e.source_scale, scale * e.weights.edge / e.source_scale,
          scale * e.weights.corner / e.source_scale};
}

namespace {
/// combine(...(combine(init, value(node_0, at_0, D_0)), ...) over every node of the fine grid
/// that is not held, D the sum over its faces of beta_f / h_a^2 plus its Robin term
/// (robin_diagonal), on all threads: `combine` must be commutative and associative exactly
/// (min, max), so the result does not depend on the threads' order.
template <typename Value, typename Combine>
double reduce_flux_diagonals(const LevelGeometry& g, const Medium& m, double init, Value&& value,
                             Combine&& combine) {
  const HostLevel h = fine_level_faces(g, m);
  double result = init;
#pragma omp parallel
  {
    double mine = init;
#pragma omp for collapse(2) schedule(static)
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          const index_t node = dense_index(g, i, j, k);
          if (h.held && h.held[node]) continue;
          double sum = 0;
          const index_t at[3] = {i, j, k};
          for (int a = 0; a < g.dims; ++a) {
            index_t lo[3] = {i, j, k};
            lo[a] = fold_face(g, a, at[a] - 1);
            sum += (h.face[a][node] + h.face[a][dense_index(g, lo[0], lo[1], lo[2])]) /
                   (g.spacing[a] * g.spacing[a]);
          }
          sum += robin_diagonal(g, m, at);
          mine = combine(mine, value(node, at, sum));
        }
#pragma omp critical(fdsolve_flux_diagonals)
    result = combine(result, mine);
  }
  return result;
}
}  // namespace

double largest_flux_diagonal(const LevelGeometry& g, const Medium& m) {
  return reduce_flux_diagonals(
      g, m, 0.0, [](index_t, const index_t*, double d) { return d; },
      [](double x, double y) { return std::max(x, y); });
}

double smallest_capacity_over_diagonal(const LevelGeometry& g, const Medium& m) {
  const double none = std::numeric_limits<double>::infinity();
  return reduce_flux_diagonals(
      g, m, none,
      [&](index_t node, const index_t* at, double d) {
        // A node on a Dirichlet face is never stepped.
        for (int a = 0; a < g.dims; ++a)
          if ((at[a] == 0 && g.faces[2 * a] == BoundaryType::Dirichlet) ||
              (at[a] == g.n[a] - 1 && g.faces[2 * a + 1] == BoundaryType::Dirichlet))
            return none;
        return m.capacity_at(node) / d;
      },
      [](double x, double y) { return std::min(x, y); });
}

template HostArray<float> inverse_capacity<float>(const Medium&, const Layout&, const Subdomain&);
template HostArray<double> inverse_capacity<double>(const Medium&, const Layout&, const Subdomain&);
template FluxLevel<float> fine_diagonal_terms<float>(const LevelGeometry&, const Medium&,
                                                     const Subdomain&);
template FluxLevel<double> fine_diagonal_terms<double>(const LevelGeometry&, const Medium&,
                                                       const Subdomain&);
template FluxLevel<float> fine_flux_level<float>(const LevelGeometry&, const Medium&,
                                                 const Subdomain&);
template FluxLevel<double> fine_flux_level<double>(const LevelGeometry&, const Medium&,
                                                   const Subdomain&);
template std::vector<FluxLevel<float>> flux_levels<float>(const std::vector<LevelGeometry>&,
                                                          const Medium&);
template std::vector<FluxLevel<double>> flux_levels<double>(const std::vector<LevelGeometry>&,
                                                            const Medium&);

}  // namespace fdsolve::op
