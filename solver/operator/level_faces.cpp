// See level_faces.hpp.
#include "level_faces.hpp"

#include <algorithm>

namespace fdsolve::op {
namespace {

using multigrid::LevelGeometry;

double harmonic(double a, double b) { return 2.0 * a * b / (a + b); }

/// Faces as harmonic means of node values. The neighbour along a is the next node of the row
/// (a = 0) or the next row; only the last node of an axis folds.
void faces_from_nodes(const LevelGeometry& g, HostLevel& h) {
  for (int a = 0; a < g.dims; ++a) {
    HostArray<double>& face = h.face[a];
    if (!h.beta) {
      // One value: the mean of a number with itself, formed as every face forms it.
      face = filled(g.cells(), harmonic(h.beta_constant, h.beta_constant));
      continue;
    }
    face.resize(static_cast<std::size_t>(g.cells()));
    const double* b = h.beta;
    const index_t n0 = g.n[0];
    for_rows(g.n, [&](index_t j, index_t k) {
      const index_t row = dense_index(g, 0, j, k);
      if (a == 0) {
        for (index_t i = 0; i + 1 < n0; ++i) face[row + i] = harmonic(b[row + i], b[row + i + 1]);
        face[row + n0 - 1] = harmonic(b[row + n0 - 1], b[row + fold_node(g, 0, n0)]);
        return;
      }
      const index_t next = fold_node(g, a, (a == 1 ? j : k) + 1);
      const index_t other = a == 1 ? dense_index(g, 0, next, k) : dense_index(g, 0, j, next);
      for (index_t i = 0; i < n0; ++i) face[row + i] = harmonic(b[row + i], b[other + i]);
    });
  }
}

bool halves(const LevelGeometry& coarse, int a) {
  return 2 * coarse.ratio.num[a] == coarse.ratio.den[a];
}
bool kept(const LevelGeometry& coarse, int a) { return coarse.ratio.num[a] == coarse.ratio.den[a]; }

/// The fine node nearest coarse node I along axis a.
index_t fine_position(const LevelGeometry& coarse, int a, index_t I) {
  const index_t num = coarse.ratio.num[a], den = coarse.ratio.den[a];
  return (2 * I * den + num) / (2 * num);
}

/// The averaged face of the nested level g across axis a at coarse node `at`: the fine faces
/// it spans along a in series (harmonic mean where a halves), the fine rows beside it in
/// parallel (offsets -1..1 with weights 1/4, 1/2, 1/4 where an axis across the face halves).
double averaged_face(const LevelGeometry& fine, const HostLevel& f, const LevelGeometry& g, int a,
                     const index_t at[3]) {
  const auto fine_face = [&](const index_t q[3]) {
    index_t r[3] = {q[0], q[1], q[2]};
    for (int b = 0; b < g.dims; ++b)
      r[b] = b == a ? fold_face(fine, b, r[b]) : fold_node(fine, b, r[b]);
    return f.face[a][dense_index(fine, r[0], r[1], r[2])];
  };
  double sum = 0;
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
        series = harmonic(fine_face(q), fine_face(q1));
      } else {
        q[a] = at[a];
        series = fine_face(q);
      }
      sum += w * series;
    }
  return sum;
}

}  // namespace

index_t fold_node(const LevelGeometry& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.faces[2 * axis] == BoundaryType::Neumann ? std::min(-i, n - 1) : 0;
  if (i >= n)
    return g.faces[2 * axis + 1] == BoundaryType::Neumann ? std::max(2 * (n - 1) - i, index_t(0))
                                                          : n - 1;
  return i;
}

index_t fold_face(const LevelGeometry& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.faces[2 * axis] == BoundaryType::Neumann ? std::min(-1 - i, n - 2) : 0;
  if (i > n - 2)
    return g.faces[2 * axis + 1] == BoundaryType::Neumann ? std::max(2 * n - 3 - i, index_t(0))
                                                          : n - 2;
  return i;
}

HostLevel fine_level_faces(const LevelGeometry& g, const Medium& m) {
  HostLevel h;
  h.beta = m.varies() ? m.beta.data() : nullptr;
  h.beta_constant = m.constant;
  h.held = m.held.empty() ? nullptr : m.held.data();
  h.capacity = m.capacity.empty() ? nullptr : m.capacity.data();
  if (!m.by_cells()) {
    faces_from_nodes(g, h);
    return h;
  }
  // Under sampling: cells each face is the mean of the cells beside it; a face index beyond
  // the nodes folds as the face rule says (Neumann: the mirror's face), as faces_from_nodes'
  // folded neighbour does.
  for (int a = 0; a < g.dims; ++a) {
    HostArray<double>& face = h.face[a];
    face.resize(static_cast<std::size_t>(g.cells()));
    for_rows(g.n, [&](index_t j, index_t k) {
      for (index_t i = 0; i < g.n[0]; ++i) {
        std::array<index_t, 3> node{i, j, k};
        node[a] = fold_face(g, a, node[a]);
        face[dense_index(g, i, j, k)] = m.face_beta(a, node);
      }
    });
  }
  return h;
}

HostLevel coarse_level_faces(const LevelGeometry& fine, const HostLevel& f,
                             const LevelGeometry& g) {
  HostLevel h;
  const index_t cells = g.cells();
  h.beta_constant = f.beta_constant;
  if (f.beta) {
    h.own_beta.resize(static_cast<std::size_t>(cells));
    h.beta = h.own_beta.data();
  }
  if (f.held) {
    h.own_held.resize(static_cast<std::size_t>(cells));
    h.held = h.own_held.data();
  }
  if (f.capacity) {
    h.own_capacity.resize(static_cast<std::size_t>(cells));
    h.capacity = h.own_capacity.data();
  }
  for_rows(g.n, [&](index_t j, index_t k) {
    for (index_t i = 0; i < g.n[0]; ++i) {
      const index_t at[3] = {i, j, k};
      index_t p[3] = {0, 0, 0};
      for (int a = 0; a < g.dims; ++a) p[a] = std::min(fine_position(g, a, at[a]), fine.n[a] - 1);
      const index_t src = dense_index(fine, p[0], p[1], p[2]), to = dense_index(g, i, j, k);
      if (f.beta) h.own_beta[to] = f.beta[src];
      if (f.held) h.own_held[to] = f.held[src];
      if (f.capacity) h.own_capacity[to] = f.capacity[src];
    }
  });
  bool nested = true;
  for (int a = 0; a < g.dims; ++a) nested = nested && (halves(g, a) || kept(g, a));
  if (!nested) {
    faces_from_nodes(g, h);
    return h;
  }
  for (int a = 0; a < g.dims; ++a) {
    HostArray<double>& face = h.face[a];
    face.resize(static_cast<std::size_t>(cells));
    for_rows(g.n, [&](index_t j, index_t k) {
      for (index_t i = 0; i < g.n[0]; ++i) {
        const index_t at[3] = {i, j, k};
        face[dense_index(g, i, j, k)] = averaged_face(fine, f, g, a, at);
      }
    });
  }
  return h;
}

}  // namespace fdsolve::op
