// See flux_levels.hpp.
#include "flux_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "problem/weights.hpp"

namespace fdsolve::op {
namespace {

using multigrid::LevelGeometry;

double harmonic(double a, double b) { return 2.0 * a * b / (a + b); }

/// A node index beyond an axis folded back by its face rule: mirrored across a Neumann face,
/// wrapped on a periodic axis, clamped at a Dirichlet face (whose ghost nothing reads).
index_t fold_node(const LevelGeometry& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.faces[2 * axis] == BoundaryType::Neumann ? std::min(-i, n - 1) : 0;
  if (i >= n)
    return g.faces[2 * axis + 1] == BoundaryType::Neumann ? std::max(2 * (n - 1) - i, index_t(0))
                                                           : n - 1;
  return i;
}

/// The same for a face index (the face between nodes i and i + 1), valid for -1..n-1.
index_t fold_face(const LevelGeometry& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.faces[2 * axis] == BoundaryType::Neumann ? std::min(-1 - i, n - 2) : 0;
  if (i > n - 2)
    return g.faces[2 * axis + 1] == BoundaryType::Neumann ? std::max(2 * n - 3 - i, index_t(0))
                                                           : n - 2;
  return i;
}

/// Face coefficients of one level in double: face[a] dense over (node index along the other
/// axes) x (face index 0..n_a-1 along a, the face between i and i + 1; the last one is the
/// wrap of a periodic axis and otherwise unused), plus node values and held flags.
struct HostLevel {
  std::array<std::vector<double>, 3> face;
  std::vector<double> beta;  // node values (for a non-nested next level)
  std::vector<std::uint8_t> held;
  std::vector<double> capacity;  // node values where heat's capacity varies, else empty
};

index_t dense(const LevelGeometry& g, index_t i, index_t j, index_t k) {
  return (k * g.n[1] + j) * g.n[0] + i;
}

HostLevel fine_host(const LevelGeometry& g, const Medium& m) {
  HostLevel h;
  const index_t cells = g.cells();
  h.beta.resize(static_cast<std::size_t>(cells));
  for (index_t c = 0; c < cells; ++c) h.beta[c] = m.beta_at(c);
  h.held = m.held;
  h.capacity = m.capacity;
  return h;
}

/// Faces as harmonic means of node values.
void faces_from_nodes(const LevelGeometry& g, HostLevel& h) {
  for (int a = 0; a < g.dims; ++a) {
    h.face[a].assign(static_cast<std::size_t>(g.cells()), 0.0);
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          index_t nb[3] = {i, j, k};
          nb[a] = fold_node(g, a, nb[a] + 1);
          h.face[a][dense(g, i, j, k)] =
              harmonic(h.beta[dense(g, i, j, k)], h.beta[dense(g, nb[0], nb[1], nb[2])]);
        }
  }
}

/// The fine level's faces: harmonic means of node values, or with problem.sampling: cells of the
/// cells beside each face. A face index beyond the nodes folds as the face rule says (Neumann:
/// the mirror's face), as faces_from_nodes' folded neighbour does.
void fine_faces(const LevelGeometry& g, const Medium& m, HostLevel& h) {
  if (!m.by_cells()) {
    faces_from_nodes(g, h);
    return;
  }
  for (int a = 0; a < g.dims; ++a) {
    h.face[a].assign(static_cast<std::size_t>(g.cells()), 0.0);
#pragma omp parallel for collapse(2) schedule(static)
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          std::array<index_t, 3> node{i, j, k};
          node[a] = fold_face(g, a, node[a]);
          h.face[a][dense(g, i, j, k)] = m.face_beta(a, node);
        }
  }
}

bool halves(const LevelGeometry& coarse, int a) {
  return 2 * coarse.ratio.num[a] == coarse.ratio.den[a];
}
bool kept(const LevelGeometry& coarse, int a) {
  return coarse.ratio.num[a] == coarse.ratio.den[a];
}

/// The fine node nearest coarse node I along axis a.
index_t fine_position(const LevelGeometry& coarse, int a, index_t I) {
  const index_t num = coarse.ratio.num[a], den = coarse.ratio.den[a];
  return (2 * I * den + num) / (2 * num);
}

HostLevel coarse_host(const LevelGeometry& fine, const HostLevel& f, const LevelGeometry& g) {
  HostLevel h;
  const index_t cells = g.cells();
  h.beta.resize(static_cast<std::size_t>(cells));
  if (!f.held.empty()) h.held.assign(static_cast<std::size_t>(cells), 0);
  if (!f.capacity.empty()) h.capacity.assign(static_cast<std::size_t>(cells), 0.0);
  for (index_t k = 0; k < g.n[2]; ++k)
    for (index_t j = 0; j < g.n[1]; ++j)
      for (index_t i = 0; i < g.n[0]; ++i) {
        const index_t at[3] = {i, j, k};
        index_t p[3] = {0, 0, 0};
        for (int a = 0; a < g.dims; ++a)
          p[a] = std::min(fine_position(g, a, at[a]), fine.n[a] - 1);
        const index_t src = dense(fine, p[0], p[1], p[2]);
        h.beta[dense(g, i, j, k)] = f.beta[src];
        if (!h.held.empty()) h.held[dense(g, i, j, k)] = f.held[src];
        if (!h.capacity.empty()) h.capacity[dense(g, i, j, k)] = f.capacity[src];
      }
  bool nested = true;
  for (int a = 0; a < g.dims; ++a) nested = nested && (halves(g, a) || kept(g, a));
  if (!nested) {
    faces_from_nodes(g, h);
    return h;
  }
  // Averaged faces: series along the face's axis, parallel across the others.
  for (int a = 0; a < g.dims; ++a) {
    h.face[a].assign(static_cast<std::size_t>(cells), 0.0);
    const auto fine_face = [&](index_t fi, index_t fj, index_t fk) {
      index_t q[3] = {fi, fj, fk};
      for (int b = 0; b < g.dims; ++b)
        q[b] = b == a ? fold_face(fine, b, q[b]) : fold_node(fine, b, q[b]);
      return f.face[a][dense(fine, q[0], q[1], q[2])];
    };
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          const index_t at[3] = {i, j, k};
          double sum = 0;
          // The two axes across the face: offsets -1..1 (weights 1/4, 1/2, 1/4) where they
          // halve, 0 where they are kept or absent.
          const int t1 = a == 0 ? 1 : 0, t2 = a == 2 ? 1 : 2;
          const int r1 = t1 < g.dims && halves(g, t1) ? 1 : 0;
          const int r2 = t2 < g.dims && halves(g, t2) ? 1 : 0;
          for (int o2 = -r2; o2 <= r2; ++o2)
            for (int o1 = -r1; o1 <= r1; ++o1) {
              index_t q[3] = {0, 0, 0};
              double w = 1.0;
              for (int b = 0; b < g.dims; ++b) {
                if (b == a) continue;
                const int o = b == t1 ? o1 : o2;
                if (halves(g, b)) {
                  q[b] = 2 * at[b] + o;
                  w *= o == 0 ? 0.5 : 0.25;
                } else {
                  q[b] = at[b];
                }
              }
              double series;
              if (halves(g, a)) {
                index_t q1[3] = {q[0], q[1], q[2]};
                q[a] = 2 * at[a];
                q1[a] = 2 * at[a] + 1;
                series = harmonic(fine_face(q[0], q[1], q[2]), fine_face(q1[0], q1[1], q1[2]));
              } else {
                q[a] = at[a];
                series = fine_face(q[0], q[1], q[2]);
              }
              sum += w * series;
            }
          h.face[a][dense(g, i, j, k)] = sum;
        }
  }
  return h;
}

/// FluxLevel::diagonal of the nodes `sub` owns of level g (the whole level: offset 0).
template <typename T>
void add_robin(const LevelGeometry& g, const Medium& m, const std::array<index_t, 3>& n,
               const std::array<index_t, 3>& offset, FluxLevel<T>& out) {
  if (!m.robin()) return;
  const Layout& L = out.layout;
  out.diagonal.assign(static_cast<std::size_t>(L.size), T(0));
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) {
        const index_t at[3] = {i + offset[0], j + offset[1], k + offset[2]};
        out.diagonal[L.at(i, j, k)] = static_cast<T>(robin_diagonal(g, m, at));
      }
}

template <typename T>
FluxLevel<T> to_layout(const LevelGeometry& g, const HostLevel& h) {
  FluxLevel<T> out;
  out.layout = g.layout(sizeof(T));
  const Layout& L = out.layout;
  for (int a = 0; a < g.dims; ++a) {
    std::vector<T>& face = out.face[a];
    face.assign(static_cast<std::size_t>(L.size), T(1));
    // Owned faces 0..n_a-1, then face -1 (what node 0 reads as its lower face) by the fold.
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i)
          face[L.at(i, j, k)] = static_cast<T>(h.face[a][dense(g, i, j, k)]);
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          index_t at[3] = {i, j, k};
          if (at[a] != 0) continue;
          index_t src[3] = {i, j, k};
          src[a] = fold_face(g, a, -1);
          at[a] = -1;
          face[L.at(at[0], at[1], at[2])] =
              static_cast<T>(h.face[a][dense(g, src[0], src[1], src[2])]);
        }
  }
  if (g.dims == 2) out.face[2] = out.face[1];  // unread in 2D; keeps the pointers valid
  if (!h.held.empty()) {
    out.held = h.held;
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i)
          if (h.held[dense(g, i, j, k)]) {
            T& f = out.face[0][L.at(i, j, k)];
            f = -f;
            ++out.held_count;
          }
  }
  if (!h.capacity.empty()) {
    out.capacity.assign(static_cast<std::size_t>(L.size), T(0));
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i)
          out.capacity[L.at(i, j, k)] = static_cast<T>(h.capacity[dense(g, i, j, k)]);
  }
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
  HostLevel h = fine_host(levels[0], m);
  fine_faces(levels[0], m, h);
  out.push_back(to_layout<T>(levels[0], h));
  add_robin(levels[0], m, levels[0].n, {0, 0, 0}, out.back());
  for (std::size_t l = 1; l < levels.size(); ++l) {
    h = coarse_host(levels[l - 1], h, levels[l]);
    out.push_back(to_layout<T>(levels[l], h));
    add_robin(levels[l], m, levels[l].n, {0, 0, 0}, out.back());
  }
  return out;
}

template <typename T>
FluxLevel<T> fine_flux_level(const LevelGeometry& g, const Medium& m, const Subdomain& sub) {
  HostLevel h = fine_host(g, m);
  fine_faces(g, m, h);
  FluxLevel<T> out;
  out.layout = Layout::make(g.dims, sub.n, static_cast<index_t>(128 / sizeof(T)));
  const Layout& L = out.layout;
  for (int a = 0; a < g.dims; ++a) {
    out.face[a].assign(static_cast<std::size_t>(L.size), T(1));
    // Along axis a the faces run from -1 (below the first owned node) to n - 1.
    index_t lo[3] = {0, 0, 0};
    lo[a] = -1;
    for (index_t k = lo[2]; k < sub.n[2]; ++k)
      for (index_t j = lo[1]; j < sub.n[1]; ++j)
        for (index_t i = lo[0]; i < sub.n[0]; ++i) {
          index_t global[3] = {i + sub.offset[0], j + sub.offset[1], k + sub.offset[2]};
          global[a] = fold_face(g, a, global[a]);
          out.face[a][L.at(i, j, k)] =
              static_cast<T>(h.face[a][dense(g, global[0], global[1], global[2])]);
        }
  }
  if (g.dims == 2) out.face[2] = out.face[1];
  if (!h.held.empty()) {
    out.held.assign(static_cast<std::size_t>(sub.n[0] * sub.n[1] * sub.n[2]), 0);
    for (index_t k = 0; k < sub.n[2]; ++k)
      for (index_t j = 0; j < sub.n[1]; ++j)
        for (index_t i = 0; i < sub.n[0]; ++i)
          if (h.held[dense(g, i + sub.offset[0], j + sub.offset[1], k + sub.offset[2])]) {
            out.held[(k * sub.n[1] + j) * sub.n[0] + i] = 1;
            T& f = out.face[0][L.at(i, j, k)];
            f = -f;
            ++out.held_count;
          }
  }
  add_robin(g, m, sub.n, sub.offset, out);
  if (!h.capacity.empty()) {  // this rank's part of the capacity
    out.capacity.assign(static_cast<std::size_t>(L.size), T(0));
    for (index_t k = 0; k < sub.n[2]; ++k)
      for (index_t j = 0; j < sub.n[1]; ++j)
        for (index_t i = 0; i < sub.n[0]; ++i)
          out.capacity[L.at(i, j, k)] = static_cast<T>(
              h.capacity[dense(g, i + sub.offset[0], j + sub.offset[1], k + sub.offset[2])]);
  }
  return out;
}

template <typename T>
std::vector<T> inverse_capacity(const Medium& m, const Layout& L, const Subdomain& sub) {
  std::vector<T> out(static_cast<std::size_t>(L.size), T(0));
  for (index_t k = 0; k < sub.n[2]; ++k)
    for (index_t j = 0; j < sub.n[1]; ++j)
      for (index_t i = 0; i < sub.n[0]; ++i)
        out[L.at(i, j, k)] = static_cast<T>(
            1.0 / m.capacity_at(m.index(i + sub.offset[0], j + sub.offset[1], k + sub.offset[2])));
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
/// Calls visit(node, (i, j, k), D) for every node of the fine grid that is not held, D the sum
/// over its faces of beta_f / h_a^2 plus its Robin term (robin_diagonal).
template <typename Visit>
void for_flux_diagonals(const LevelGeometry& g, const Medium& m, Visit&& visit) {
  HostLevel h = fine_host(g, m);
  fine_faces(g, m, h);
  for (index_t k = 0; k < g.n[2]; ++k)
    for (index_t j = 0; j < g.n[1]; ++j)
      for (index_t i = 0; i < g.n[0]; ++i) {
        if (!h.held.empty() && h.held[dense(g, i, j, k)]) continue;
        double sum = 0;
        const index_t at[3] = {i, j, k};
        for (int a = 0; a < g.dims; ++a) {
          index_t lo[3] = {i, j, k};
          lo[a] = fold_face(g, a, at[a] - 1);
          sum += (h.face[a][dense(g, i, j, k)] + h.face[a][dense(g, lo[0], lo[1], lo[2])]) /
                 (g.spacing[a] * g.spacing[a]);
        }
        sum += robin_diagonal(g, m, at);
        visit(dense(g, i, j, k), at, sum);
      }
}
}  // namespace

double largest_flux_diagonal(const LevelGeometry& g, const Medium& m) {
  double largest = 0;
  for_flux_diagonals(g, m,
                     [&](index_t, const index_t*, double d) { largest = std::max(largest, d); });
  return largest;
}

double smallest_capacity_over_diagonal(const LevelGeometry& g, const Medium& m) {
  double smallest = std::numeric_limits<double>::infinity();
  for_flux_diagonals(g, m, [&](index_t node, const index_t* at, double d) {
    // A node on a Dirichlet face is never stepped.
    for (int a = 0; a < g.dims; ++a)
      if ((at[a] == 0 && g.faces[2 * a] == BoundaryType::Dirichlet) ||
          (at[a] == g.n[a] - 1 && g.faces[2 * a + 1] == BoundaryType::Dirichlet))
        return;
    smallest = std::min(smallest, m.capacity_at(node) / d);
  });
  return smallest;
}

template std::vector<float> inverse_capacity<float>(const Medium&, const Layout&,
                                                   const Subdomain&);
template std::vector<double> inverse_capacity<double>(const Medium&, const Layout&,
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
