// See flux_levels.hpp. The backend's face build (kernels/level_faces.hpp) forms every array;
// here the levels are walked and their arrays allocated.
#include "flux_levels.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "elapsed.hpp"
#include "face_inputs.hpp"
#include "problem/weights.hpp"

namespace fdsolve::op {
namespace {

using multigrid::LevelGeometry;

/// A level's dense node values and faces in the backend's memory (or, for the fine level on
/// the CPU, the medium's own arrays), while the level below is built from them.
struct DenseLevel {
  FaceGrid grid;
  Buffer<double> beta, capacity;
  std::array<Buffer<double>, 3> face;
  Buffer<std::uint8_t> held;
  double beta_constant = 1.0;

  FaceSource source() const {
    FaceSource s;
    for (int a = 0; a < 3; ++a) s.face[a] = face[a].size() ? face[a].data() : nullptr;
    s.beta = beta.size() ? beta.data() : nullptr;
    s.beta_constant = beta_constant;
    return s;
  }
  const std::uint8_t* held_marks() const { return held.size() ? held.data() : nullptr; }
  const double* capacity_values() const { return capacity.size() ? capacity.data() : nullptr; }
};

/// The fine level's node values (and, under sampling: cells, its faces) in the builder's
/// memory: what every face of the fine level and the levels below come from.
DenseLevel fine_dense(const LevelGeometry& g, const Medium& m, LevelFaceBuilder& build,
                      const std::array<HostArray<double>, 3>& cells) {
  DenseLevel d;
  d.grid = face_grid(g);
  d.beta_constant = m.constant;
  const index_t n = g.cells();
  if (m.varies()) d.beta = build.dense(n, m.beta.data());
  if (m.holds()) d.held = build.marks(n, m.held.data());
  if (m.capacity_varies()) d.capacity = build.dense(n, m.capacity.data());
  for (int a = 0; a < g.dims; ++a)
    if (!cells[a].empty()) d.face[a] = build.dense(n, cells[a].data());
  return d;
}

/// The level `g` below `f`: node values from the fine node nearest each coarse node, faces
/// averaged (nested levels, where `averaged`) or re-discretised from the node values.
DenseLevel coarse_dense(const DenseLevel& f, const LevelGeometry& g, LevelFaceBuilder& build,
                        bool averaged) {
  DenseLevel d;
  d.grid = face_grid(g);
  d.beta_constant = f.beta_constant;
  const index_t n = g.cells();
  CoarseNodes nodes;
  nodes.fine = f.grid;
  nodes.coarse = d.grid;
  if (f.beta.size()) {
    d.beta = build.dense(n);
    nodes.beta = f.beta.data();
    nodes.beta_out = d.beta.data();
  }
  if (f.held.size()) {
    d.held = build.marks(n);
    nodes.held = f.held.data();
    nodes.held_out = d.held.data();
  }
  if (f.capacity.size()) {
    d.capacity = build.dense(n);
    nodes.capacity = f.capacity.data();
    nodes.capacity_out = d.capacity.data();
  }
  if (nodes.beta || nodes.held || nodes.capacity) build.run(nodes);
  if (!d.grid.nested() || !averaged) return d;  // faces from its own node values
  AveragedFaces faces;
  faces.fine = f.grid;
  faces.coarse = d.grid;
  faces.fine_faces = f.source();
  for (int a = 0; a < g.dims; ++a) {
    d.face[a] = build.dense(n);
    faces.out[a] = d.face[a].data();
  }
  build.run(faces);
  return d;
}

/// The arrays of the part `part` of level `d` in its layout: faces (`fold_last` as
/// LayoutFaces), held markers, and where asked the capacity and the Robin term.
template <typename T>
FluxLevel<T> level_arrays(const DenseLevel& d, const Layout& L, const LevelPart& part,
                          bool fold_last, bool faces, const RobinFaces* robin,
                          Backend<T>& backend) {
  LevelFaceBuilder& build = backend.level_faces();
  FluxLevel<T> out;
  out.layout = L;
  const index_t size = L.size;
  if (faces) {
    for (int a = 0; a < d.grid.dims; ++a) {
      out.face[a] = backend.allocate(size);
      build.fill(out.face[a].data(), size, T(1));
      LayoutFaces<T> op;
      op.g = d.grid;
      op.source = d.source();
      op.part = part;
      op.axis = a;
      op.fold_last = fold_last;
      op.out = out.face[a].data();
      build.run(op);
    }
    if (d.grid.dims == 2) {  // unread in 2D; keeps the pointers valid
      out.face[2] = backend.allocate(size);
      backend.copy(out.face[2], out.face[1]);
    }
    if (const std::uint8_t* held = d.held_marks()) {
      MarkHeld<T> op;
      op.g = d.grid;
      op.held = held;
      op.part = part;
      op.face = out.face[0].data();
      out.held_count = build.run(op);
    }
  }
  const auto node_terms = [&](Buffer<T>& array, const double* capacity) {
    array = backend.allocate(size);
    backend.zero(array);
    NodeTerms<T> op;
    op.g = d.grid;
    op.part = part;
    op.capacity = capacity;
    if (robin) op.robin = *robin;
    op.out = array.data();
    build.run(op);
  };
  if (const double* capacity = d.capacity_values()) node_terms(out.capacity, capacity);
  if (robin) node_terms(out.diagonal, nullptr);
  backend.synchronize();
  return out;
}

LevelPart whole_part(const LevelGeometry& g, const Layout& L) {
  LevelPart p;
  p.layout = strides_of(L);
  for (int a = 0; a < 3; ++a) p.n[a] = g.n[a];
  return p;
}

LevelPart rank_part(const Subdomain& sub, const Layout& L) {
  LevelPart p;
  p.layout = strides_of(L);
  for (int a = 0; a < 3; ++a) {
    p.n[a] = sub.n[a];
    p.offset[a] = sub.offset[a];
  }
  return p;
}

}  // namespace

template <typename T>
std::vector<FluxLevel<T>> flux_levels(const std::vector<LevelGeometry>& levels, const Medium& m,
                                      Backend<T>& backend, bool averaged_faces) {
  LevelFaceBuilder& build = backend.level_faces();
  const RobinFaces robin = robin_faces(m);
  const RobinFaces* with_robin = m.robin() ? &robin : nullptr;
  const auto cells = cell_sampled_faces(levels[0], m);
  std::vector<FluxLevel<T>> out;
  const auto whole = [&](const DenseLevel& level, std::size_t l) {
    const Layout L = levels[l].layout(sizeof(T));
    return level_arrays<T>(level, L, whole_part(levels[l], L), false, true, with_robin, backend);
  };
  auto start = std::chrono::steady_clock::now();
  DenseLevel d = fine_dense(levels[0], m, build, cells);
  const double medium = seconds_since(start);
  start = std::chrono::steady_clock::now();
  out.push_back(whole(d, 0));
  const double fine = seconds_since(start);
  start = std::chrono::steady_clock::now();
  for (std::size_t l = 1; l < levels.size(); ++l) {
    DenseLevel next = coarse_dense(d, levels[l], build, averaged_faces);
    out.push_back(whole(next, l));
    d = std::move(next);  // level_arrays waited for the work that read d
  }
  spdlog::debug("face arrays: the medium to the builder {:.1f} ms, the fine level {:.1f} ms, "
                "the coarser levels {:.1f} ms",
                1e3 * medium, 1e3 * fine, 1e3 * seconds_since(start));
  return out;
}

template <typename T>
FluxLevel<T> fine_flux_level(const LevelGeometry& g, const Medium& m, const Subdomain& sub,
                             Backend<T>& backend) {
  const RobinFaces robin = robin_faces(m);
  const auto cells = cell_sampled_faces(g, m);
  const DenseLevel d = fine_dense(g, m, backend.level_faces(), cells);
  const Layout L = Layout::make(g.dims, sub.n, static_cast<index_t>(128 / sizeof(T)));
  return level_arrays<T>(d, L, rank_part(sub, L), true, true, m.robin() ? &robin : nullptr,
                         backend);
}

template <typename T>
FluxLevel<T> fine_diagonal_terms(const LevelGeometry& g, const Medium& m, const Subdomain& sub,
                                 Backend<T>& backend) {
  const RobinFaces robin = robin_faces(m);
  DenseLevel d;
  d.grid = face_grid(g);
  if (m.capacity_varies()) d.capacity = backend.level_faces().dense(g.cells(), m.capacity.data());
  const Layout L = Layout::make(g.dims, sub.n, static_cast<index_t>(128 / sizeof(T)));
  return level_arrays<T>(d, L, rank_part(sub, L), true, false, m.robin() ? &robin : nullptr,
                         backend);
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
/// (robin_term), on all threads: `combine` must be commutative and associative exactly
/// (min, max), so the result does not depend on the threads' order.
template <typename Value, typename Combine>
double reduce_flux_diagonals(const LevelGeometry& g, const Medium& m, double init, Value&& value,
                             Combine&& combine) {
  const FaceGrid f = face_grid(g);
  const RobinFaces robin = robin_faces(m);
  const auto cells = cell_sampled_faces(g, m);
  const FaceSource faces = host_fine_faces(m, cells);
  const std::uint8_t* held = m.holds() ? m.held.data() : nullptr;
  double result = init;
#pragma omp parallel
  {
    double mine = init;
#pragma omp for collapse(2) schedule(static)
    for (index_t k = 0; k < g.n[2]; ++k)
      for (index_t j = 0; j < g.n[1]; ++j)
        for (index_t i = 0; i < g.n[0]; ++i) {
          const index_t node = f.at(i, j, k);
          if (held && held[node]) continue;
          double sum = 0;
          const index_t at[3] = {i, j, k};
          for (int a = 0; a < g.dims; ++a) {
            index_t lo[3] = {i, j, k};
            lo[a] = fold_face(f, a, at[a] - 1);
            sum += (source_face(f, faces, a, i, j, k) +
                    source_face(f, faces, a, lo[0], lo[1], lo[2])) /
                   (g.spacing[a] * g.spacing[a]);
          }
          sum += robin_term(f, robin, at);
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
                                                     const Subdomain&, Backend<float>&);
template FluxLevel<double> fine_diagonal_terms<double>(const LevelGeometry&, const Medium&,
                                                       const Subdomain&, Backend<double>&);
template FluxLevel<float> fine_flux_level<float>(const LevelGeometry&, const Medium&,
                                                 const Subdomain&, Backend<float>&);
template FluxLevel<double> fine_flux_level<double>(const LevelGeometry&, const Medium&,
                                                   const Subdomain&, Backend<double>&);
template std::vector<FluxLevel<float>> flux_levels<float>(const std::vector<LevelGeometry>&,
                                                          const Medium&, Backend<float>&, bool);
template std::vector<FluxLevel<double>> flux_levels<double>(const std::vector<LevelGeometry>&,
                                                            const Medium&, Backend<double>&, bool);

}  // namespace fdsolve::op
