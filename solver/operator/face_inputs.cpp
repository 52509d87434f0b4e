// See face_inputs.hpp.
#include "face_inputs.hpp"

namespace fdsolve::op {

FaceGrid face_grid(const multigrid::LevelGeometry& g) {
  FaceGrid f;
  f.dims = g.dims;
  for (int a = 0; a < 3; ++a) {
    f.n[a] = g.n[a];
    f.periodic[a] = g.periodic[a];
    f.num[a] = g.ratio.num[a];
    f.den[a] = g.ratio.den[a];
    f.spacing[a] = g.spacing[a];
  }
  for (int face = 0; face < 6; ++face) {
    f.neumann[face] = g.faces[face] == BoundaryType::Neumann;
    f.dirichlet[face] = g.faces[face] == BoundaryType::Dirichlet;
  }
  return f;
}

RobinFaces robin_faces(const Medium& m) {
  RobinFaces r;
  for (int face = 0; face < 6; ++face) {
    r.on[face] = m.robin_face[face];
    r.h[face] = m.robin_h[face];
  }
  return r;
}

std::array<HostArray<double>, 3> cell_sampled_faces(const multigrid::LevelGeometry& g,
                                                    const Medium& m) {
  std::array<HostArray<double>, 3> faces;
  if (!m.by_cells()) return faces;
  const FaceGrid f = face_grid(g);
  for (int a = 0; a < g.dims; ++a) {
    HostArray<double>& face = faces[a];
    face.resize(static_cast<std::size_t>(g.cells()));
    for_rows(g.n, [&](index_t j, index_t k) {
      for (index_t i = 0; i < g.n[0]; ++i) {
        std::array<index_t, 3> node{i, j, k};
        node[a] = fold_face(f, a, node[a]);
        face[f.at(i, j, k)] = m.face_beta(a, node);
      }
    });
  }
  return faces;
}

FaceSource host_fine_faces(const Medium& m, const std::array<HostArray<double>, 3>& cells) {
  FaceSource s;
  for (int a = 0; a < 3; ++a) s.face[a] = cells[a].empty() ? nullptr : cells[a].data();
  s.beta = m.varies() ? m.beta.data() : nullptr;
  s.beta_constant = m.constant;
  return s;
}

}  // namespace fdsolve::op
