// The flux operator's face arrays of every multigrid level, node by node: one definition that
// the CPU backend runs in host loops and the CUDA backend in kernels (FDSOLVE_HOST_DEVICE), so
// that a run builds its operator where its fields live and both backends form the same bits.
//
// Fine grid: the face between nodes i and i + e_a is the harmonic mean of the two node values,
// 2 b_i b_nb / (b_i + b_nb) (or, under problem.sampling: cells, a dense face array built from
// the cells). Coarse grids that nest (each axis halves or is kept): the fine faces a coarse face
// spans along its axis act in series (harmonic mean), the fine rows beside it in parallel
// (weights 1/4, 1/2, 1/4 across each halved axis). A level that does not nest takes its node
// values from the nearest fine node and re-discretises. A coarse node is held where the fine
// node under it is.
//
// Dense arrays are C-ordered over a level's nodes, x fastest. A dense face array along a holds
// face index 0..n_a-1 (the face between i and i + 1; the last is a periodic axis's wrap and
// otherwise unused).
#pragma once

#include <cstdint>

#include "grid_strides.hpp"
#include "host_device.hpp"
#include "layout.hpp"

namespace fdsolve {

/// A level's grid as the face build reads it: nodes, face rules, its ratio to the next finer
/// grid (unused on the fine grid) and spacing.
struct FaceGrid {
  int dims = 2;
  index_t n[3] = {1, 1, 1};
  bool periodic[3] = {false, false, false};
  bool neumann[6] = {false, false, false, false, false, false};    // mirrored faces
  bool dirichlet[6] = {false, false, false, false, false, false};  // held faces
  index_t num[3] = {1, 1, 1}, den[3] = {1, 1, 1};
  double spacing[3] = {1, 1, 1};

  FDSOLVE_HOST_DEVICE index_t cells() const { return n[0] * n[1] * n[2]; }
  FDSOLVE_HOST_DEVICE index_t at(index_t i, index_t j, index_t k) const {
    return (k * n[1] + j) * n[0] + i;
  }
  FDSOLVE_HOST_DEVICE bool halves(int a) const { return 2 * num[a] == den[a]; }
  FDSOLVE_HOST_DEVICE bool kept(int a) const { return num[a] == den[a]; }
  FDSOLVE_HOST_DEVICE bool nested() const {
    for (int a = 0; a < dims; ++a)
      if (!halves(a) && !kept(a)) return false;
    return true;
  }
};

FDSOLVE_HOST_DEVICE double harmonic_mean(double a, double b) { return 2.0 * a * b / (a + b); }

/// A node index beyond an axis folded back by its face rule: mirrored across a Neumann face,
/// wrapped on a periodic axis, clamped at a Dirichlet face (whose ghost nothing reads).
FDSOLVE_HOST_DEVICE index_t fold_node(const FaceGrid& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.neumann[2 * axis] ? (-i < n - 1 ? -i : n - 1) : 0;
  if (i >= n) {
    const index_t m = 2 * (n - 1) - i;
    return g.neumann[2 * axis + 1] ? (m > 0 ? m : index_t(0)) : n - 1;
  }
  return i;
}

/// The same for a face index (the face between nodes i and i + 1), valid for -1..n-1.
FDSOLVE_HOST_DEVICE index_t fold_face(const FaceGrid& g, int axis, index_t i) {
  const index_t n = g.n[axis];
  if (g.periodic[axis]) return ((i % n) + n) % n;
  if (i < 0) return g.neumann[2 * axis] ? (-1 - i < n - 2 ? -1 - i : n - 2) : 0;
  if (i > n - 2) {
    const index_t m = 2 * n - 3 - i;
    return g.neumann[2 * axis + 1] ? (m > 0 ? m : index_t(0)) : n - 2;
  }
  return i;
}

/// Where a level's faces come from: dense face arrays (averaged coarse levels, cell sampling),
/// else the harmonic mean of node values `beta` formed on the spot (null: `beta_constant`
/// everywhere).
struct FaceSource {
  const double* face[3] = {nullptr, nullptr, nullptr};
  const double* beta = nullptr;
  double beta_constant = 1.0;
};

/// Dense face (i, j, k) along a of a level (indices within the level, not folded further).
FDSOLVE_HOST_DEVICE double source_face(const FaceGrid& g, const FaceSource& s, int a, index_t i,
                                       index_t j, index_t k) {
  if (s.face[a]) return s.face[a][g.at(i, j, k)];
  if (!s.beta) return harmonic_mean(s.beta_constant, s.beta_constant);
  index_t nb[3] = {i, j, k};
  nb[a] = fold_node(g, a, nb[a] + 1);
  return harmonic_mean(s.beta[g.at(i, j, k)], s.beta[g.at(nb[0], nb[1], nb[2])]);
}

/// The fine node nearest coarse node I along axis a of the coarse grid `c`.
FDSOLVE_HOST_DEVICE index_t fine_position(const FaceGrid& c, int a, index_t I) {
  return (2 * I * c.den[a] + c.num[a]) / (2 * c.num[a]);
}

/// The dense index of the fine node under coarse node q of `c` (fine grid `f`).
FDSOLVE_HOST_DEVICE index_t fine_node_under(const FaceGrid& f, const FaceGrid& c, index_t q) {
  const index_t at[3] = {q % c.n[0], q / c.n[0] % c.n[1], q / (c.n[0] * c.n[1])};
  index_t p[3] = {0, 0, 0};
  for (int a = 0; a < c.dims; ++a) {
    const index_t x = fine_position(c, a, at[a]);
    p[a] = x < f.n[a] - 1 ? x : f.n[a] - 1;
  }
  return f.at(p[0], p[1], p[2]);
}

/// The averaged face of the nested level c across axis a at coarse node `at`, from the faces
/// of the fine level f: the fine faces it spans along a in series where a halves, the fine rows
/// beside it in parallel (offsets -1..1, weights 1/4, 1/2, 1/4 where an axis across halves).
/// averaged_face_of is the sum itself, each fine face (its indices before any fold) read by
/// `fine_face`; averaged_face folds them by the face rules (the CPU build reads the faces that
/// need no fold straight, level_faces_cpu.cpp).
template <typename FineFace>
FDSOLVE_HOST_DEVICE double averaged_face_of(const FaceGrid& c, int a, const index_t at[3],
                                            const FineFace& fine_face) {
  double sum = 0;
  const int t1 = a == 0 ? 1 : 0, t2 = a == 2 ? 1 : 2;
  const int r1 = t1 < c.dims && c.halves(t1) ? 1 : 0;
  const int r2 = t2 < c.dims && c.halves(t2) ? 1 : 0;
  for (int o2 = -r2; o2 <= r2; ++o2)
    for (int o1 = -r1; o1 <= r1; ++o1) {
      index_t q[3] = {0, 0, 0};
      double w = 1.0;
      for (int b = 0; b < c.dims; ++b) {
        if (b == a) continue;
        const int o = b == t1 ? o1 : o2;
        if (c.halves(b)) {
          q[b] = 2 * at[b] + o;
          w *= o == 0 ? 0.5 : 0.25;
        } else {
          q[b] = at[b];
        }
      }
      double series;
      if (c.halves(a)) {
        index_t q1[3] = {q[0], q[1], q[2]};
        q[a] = 2 * at[a];
        q1[a] = 2 * at[a] + 1;
        series = harmonic_mean(fine_face(q), fine_face(q1));
      } else {
        q[a] = at[a];
        series = fine_face(q);
      }
      sum += w * series;
    }
  return sum;
}

FDSOLVE_HOST_DEVICE double averaged_face(const FaceGrid& f, const FaceSource& fs,
                                         const FaceGrid& c, int a, const index_t at[3]) {
  return averaged_face_of(c, a, at, [&](const index_t q[3]) {
    index_t r[3] = {q[0], q[1], q[2]};
    for (int b = 0; b < c.dims; ++b) r[b] = b == a ? fold_face(f, b, r[b]) : fold_node(f, b, r[b]);
    return source_face(f, fs, a, r[0], r[1], r[2]);
  });
}

/// Robin faces: per face whether it is one and its h.
struct RobinFaces {
  bool on[6] = {false, false, false, false, false, false};
  double h[6] = {0, 0, 0, 0, 0, 0};
};

/// The Robin faces' diagonal term of node `at` of level g: the sum over the Robin faces it lies
/// on of 2 h / h_a, 0 on a Dirichlet face (which holds it).
FDSOLVE_HOST_DEVICE double robin_term(const FaceGrid& g, const RobinFaces& r, const index_t at[3]) {
  double sum = 0;
  for (int a = 0; a < g.dims; ++a) {
    if (g.periodic[a]) continue;
    const bool lo = at[a] == 0, hi = at[a] == g.n[a] - 1;
    if ((lo && g.dirichlet[2 * a]) || (hi && g.dirichlet[2 * a + 1])) return 0.0;
    if (lo && r.on[2 * a]) sum += 2.0 * r.h[2 * a] / g.spacing[a];
    if (hi && r.on[2 * a + 1]) sum += 2.0 * r.h[2 * a + 1] / g.spacing[a];
  }
  return sum;
}

/// The part of a level a layout holds: `n` nodes from `offset` of the level (a rank's box, or
/// the whole level with offset 0), in the layout whose offsets are `layout`.
struct LevelPart {
  GridStrides layout;
  index_t n[3] = {1, 1, 1};
  index_t offset[3] = {0, 0, 0};
};

// The operations of a face build, each over an index range that the backend runs on all its
// threads. Every element they write is written by one index alone.

/// Coarse node values from the nearest fine node: beta, held marks and capacity (each where
/// its source is non-null), over the coarse level's nodes.
struct CoarseNodes {
  FaceGrid fine, coarse;
  const double* beta = nullptr;
  const std::uint8_t* held = nullptr;
  const double* capacity = nullptr;
  double* beta_out = nullptr;
  std::uint8_t* held_out = nullptr;
  double* capacity_out = nullptr;

  FDSOLVE_HOST_DEVICE index_t count() const { return coarse.cells(); }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const {
    const index_t src = fine_node_under(fine, coarse, q);
    if (beta) beta_out[q] = beta[src];
    if (held) held_out[q] = held[src];
    if (capacity) capacity_out[q] = capacity[src];
  }
};

/// The averaged faces of a nested coarse level, dense, over its nodes times its axes.
struct AveragedFaces {
  FaceGrid fine, coarse;
  FaceSource fine_faces;
  double* out[3] = {nullptr, nullptr, nullptr};

  FDSOLVE_HOST_DEVICE index_t count() const { return coarse.cells() * coarse.dims; }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const {
    const index_t cells = coarse.cells();
    const int a = static_cast<int>(q / cells);
    const index_t p = q % cells;
    const index_t at[3] = {p % coarse.n[0], p / coarse.n[0] % coarse.n[1],
                           p / (coarse.n[0] * coarse.n[1])};
    out[a][p] = averaged_face(fine, fine_faces, coarse, a, at);
  }
};

/// One axis's faces of a level part in its layout: along a from face -1 (below the first
/// node, folded by the face rule) to n_a - 1, every other axis over the part's nodes; the rest
/// of the layout is left as it is (the caller fills it with 1 first). `fold_last`: the last
/// face of an axis folds too, as every face of a rank's part does; otherwise the dense value.
template <typename T>
struct LayoutFaces {
  FaceGrid g;
  FaceSource source;
  LevelPart part;
  int axis = 0;
  bool fold_last = false;
  T* out = nullptr;

  FDSOLVE_HOST_DEVICE index_t extent(int b) const { return part.n[b] + (b == axis ? 1 : 0); }
  FDSOLVE_HOST_DEVICE index_t count() const { return extent(0) * extent(1) * extent(2); }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const {
    index_t local[3] = {q % extent(0), q / extent(0) % extent(1), q / (extent(0) * extent(1))};
    local[axis] -= 1;  // from the face below the first node
    index_t global[3] = {local[0] + part.offset[0], local[1] + part.offset[1],
                         local[2] + part.offset[2]};
    if (global[axis] < 0 || fold_last) global[axis] = fold_face(g, axis, global[axis]);
    out[part.layout.at(local[0], local[1], local[2])] =
        static_cast<T>(source_face(g, source, axis, global[0], global[1], global[2]));
  }
};

/// Held nodes of a level part: the +x face negated where the level's dense marks are non-zero;
/// `held(q)` says whether index q held one (the backend counts them).
template <typename T>
struct MarkHeld {
  FaceGrid g;
  const std::uint8_t* held = nullptr;
  LevelPart part;
  T* face = nullptr;

  FDSOLVE_HOST_DEVICE index_t count() const { return part.n[0] * part.n[1] * part.n[2]; }
  FDSOLVE_HOST_DEVICE bool operator()(index_t q) const {
    const index_t i = q % part.n[0], j = q / part.n[0] % part.n[1], k = q / (part.n[0] * part.n[1]);
    if (!held[g.at(i + part.offset[0], j + part.offset[1], k + part.offset[2])]) return false;
    T& f = face[part.layout.at(i, j, k)];
    f = -f;
    return true;
  }
};

/// 1 where `values` is non-zero, else 0: a held region's `where` formula evaluated where the
/// fields live comes back as one byte a node instead of a double.
struct NonzeroMarks {
  const double* values = nullptr;
  std::uint8_t* out = nullptr;
  index_t n = 0;

  FDSOLVE_HOST_DEVICE index_t count() const { return n; }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const { out[q] = values[q] != 0.0 ? 1 : 0; }
};

/// Per-node terms of a level part in its layout: heat's capacity (dense over the level) or the
/// Robin faces' diagonal term, over the part's nodes (the caller zeroes the rest).
template <typename T>
struct NodeTerms {
  FaceGrid g;
  LevelPart part;
  const double* capacity = nullptr;  // non-null: the capacity; else the Robin term
  RobinFaces robin;
  T* out = nullptr;

  FDSOLVE_HOST_DEVICE index_t count() const { return part.n[0] * part.n[1] * part.n[2]; }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const {
    const index_t local[3] = {q % part.n[0], q / part.n[0] % part.n[1],
                              q / (part.n[0] * part.n[1])};
    const index_t at[3] = {local[0] + part.offset[0], local[1] + part.offset[1],
                           local[2] + part.offset[2]};
    out[part.layout.at(local[0], local[1], local[2])] =
        static_cast<T>(capacity ? capacity[g.at(at[0], at[1], at[2])] : robin_term(g, robin, at));
  }
};

/// The held values written onto the held nodes of a field's part (the nodes whose dense marks
/// over the level are non-zero), its other nodes left as they are.
template <typename T>
struct WriteHeld {
  FaceGrid g;
  LevelPart part;
  const std::uint8_t* held = nullptr;
  const double* values = nullptr;  // dense over the level, or one per mark (by_mark)
  bool by_mark = false;
  T* out = nullptr;

  FDSOLVE_HOST_DEVICE index_t count() const { return part.n[0] * part.n[1] * part.n[2]; }
  FDSOLVE_HOST_DEVICE void operator()(index_t q) const {
    const index_t i = q % part.n[0], j = q / part.n[0] % part.n[1], k = q / (part.n[0] * part.n[1]);
    const index_t node = g.at(i + part.offset[0], j + part.offset[1], k + part.offset[2]);
    const std::uint8_t mark = held[node];
    if (mark) out[part.layout.at(i, j, k)] = static_cast<T>(values[by_mark ? mark : node]);
  }
};

}  // namespace fdsolve
