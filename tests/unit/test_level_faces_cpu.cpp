// The CPU face build's averaged coarse faces (AveragedFaces run row by row, with a path that
// reads the fine faces without folding) and a level's faces in its layout (LayoutFaces, the
// same) against the same operations applied face by face, as the CUDA build applies them: bit
// for bit, on grids whose faces fold by every rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "cpu/level_faces_cpu.hpp"
#include "level_faces.hpp"

using namespace fdsolve;

namespace {

FaceGrid face_grid(int dims, std::array<index_t, 3> n) {
  FaceGrid g;
  g.dims = dims;
  for (int a = 0; a < 3; ++a) g.n[a] = a < dims ? n[a] : 1;
  return g;
}

/// The coarse grid of `fine` halving the axes in `halves` (n - 1 even or, periodic, n even) and
/// keeping the others.
FaceGrid coarse_of(const FaceGrid& fine, std::array<bool, 3> halves) {
  FaceGrid c = fine;
  for (int a = 0; a < fine.dims; ++a) {
    if (!halves[a]) continue;
    c.n[a] = fine.periodic[a] ? fine.n[a] / 2 : (fine.n[a] - 1) / 2 + 1;
    c.num[a] = 1;
    c.den[a] = 2;
  }
  return c;
}

enum class Source { Faces, Nodes, Constant };

void check_rows_equal_faces(FaceGrid fine, std::array<bool, 3> halves, Source source) {
  const FaceGrid coarse = coarse_of(fine, halves);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(0.1, 100.0);
  std::vector<double> beta(static_cast<std::size_t>(fine.cells()));
  std::vector<double> faces[3];
  for (double& b : beta) b = value(rng);
  AveragedFaces op;
  op.fine = fine;
  op.coarse = coarse;
  if (source == Source::Nodes) op.fine_faces.beta = beta.data();
  if (source == Source::Constant) op.fine_faces.beta_constant = 3.5;
  for (int a = 0; a < fine.dims && source == Source::Faces; ++a) {
    faces[a].resize(static_cast<std::size_t>(fine.cells()));
    for (double& f : faces[a]) f = value(rng);
    op.fine_faces.face[a] = faces[a].data();
  }
  std::vector<double> rows[3], one_by_one[3];
  for (int a = 0; a < fine.dims; ++a) {
    rows[a].assign(static_cast<std::size_t>(coarse.cells()), -1.0);
    one_by_one[a].assign(static_cast<std::size_t>(coarse.cells()), -2.0);
    op.out[a] = rows[a].data();
  }
  cpu::make_host_level_faces()->run(op);
  AveragedFaces reference = op;
  for (int a = 0; a < fine.dims; ++a) reference.out[a] = one_by_one[a].data();
  for (index_t q = 0; q < reference.count(); ++q) reference(q);
  for (int a = 0; a < fine.dims; ++a) {
    CAPTURE(a);
    CHECK(rows[a] == one_by_one[a]);
  }
}

/// LayoutFaces along `axis` over `part` of `g` (in a layout with a halo of one node on every
/// side), run by the CPU build and face by face.
template <typename T>
void check_layout_rows(const FaceGrid& g, Source source, int axis, bool fold_last,
                       std::array<index_t, 3> n, std::array<index_t, 3> offset) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(0.1, 100.0);
  std::vector<double> beta(static_cast<std::size_t>(g.cells())), faces;
  for (double& b : beta) b = value(rng);
  LayoutFaces<T> op;
  op.g = g;
  op.axis = axis;
  op.fold_last = fold_last;
  if (source == Source::Nodes) op.source.beta = beta.data();
  if (source == Source::Constant) op.source.beta_constant = 3.5;
  if (source == Source::Faces) {
    faces.resize(static_cast<std::size_t>(g.cells()));
    for (double& f : faces) f = value(rng);
    op.source.face[axis] = faces.data();
  }
  const index_t pitch = n[0] + 2, plane = pitch * (n[1] + 2);
  op.part.layout = {g.dims, 1 + pitch + (g.dims == 3 ? plane : 0), pitch, plane};
  for (int b = 0; b < 3; ++b) {
    op.part.n[b] = n[b];
    op.part.offset[b] = offset[b];
  }
  const std::size_t size = static_cast<std::size_t>(plane * (g.dims == 3 ? n[2] + 2 : 1));
  std::vector<T> rows(size, T(-1)), one_by_one(size, T(-1));
  op.out = rows.data();
  cpu::make_host_level_faces()->run(op);
  LayoutFaces<T> reference = op;
  reference.out = one_by_one.data();
  for (index_t q = 0; q < reference.count(); ++q) reference(q);
  CHECK(rows == one_by_one);
  CHECK(std::count(rows.begin(), rows.end(), T(-1)) < static_cast<std::ptrdiff_t>(size));
}

}  // namespace

TEST_CASE("CPU layout faces: row by row equals face by face under every face rule") {
  FaceGrid g = face_grid(3, {9, 7, 6});
  g.neumann[0] = g.neumann[5] = true;
  g.periodic[1] = true;
  g.dirichlet[1] = g.dirichlet[4] = true;
  FaceGrid d = face_grid(2, {12, 5, 1});
  d.neumann[1] = d.neumann[2] = true;
  for (Source source : {Source::Faces, Source::Nodes, Source::Constant})
    for (bool fold_last : {false, true}) {
      CAPTURE(static_cast<int>(source));
      CAPTURE(fold_last);
      for (int axis = 0; axis < 3; ++axis) {
        CAPTURE(axis);
        check_layout_rows<double>(g, source, axis, fold_last, {9, 7, 6}, {0, 0, 0});
        check_layout_rows<float>(g, source, axis, fold_last, {5, 4, 3}, {2, 3, 1});  // a box
      }
      for (int axis = 0; axis < 2; ++axis) {
        check_layout_rows<double>(d, source, axis, fold_last, {12, 5, 1}, {0, 0, 0});
        check_layout_rows<double>(d, source, axis, fold_last, {6, 5, 1}, {6, 0, 0});
      }
    }
}

TEST_CASE("CPU averaged faces: row by row equals face by face under every face rule") {
  for (Source source : {Source::Faces, Source::Nodes, Source::Constant}) {
    CAPTURE(static_cast<int>(source));
    // 3D, every axis halving; Neumann faces on x, Dirichlet elsewhere.
    FaceGrid g = face_grid(3, {17, 9, 13});
    g.neumann[0] = g.neumann[1] = true;
    for (int f = 2; f < 6; ++f) g.dirichlet[f] = true;
    check_rows_equal_faces(g, {true, true, true}, source);
    // 3D with z kept (it does not halve) and y periodic.
    FaceGrid p = face_grid(3, {9, 8, 5});
    p.periodic[1] = true;
    p.neumann[4] = true;
    check_rows_equal_faces(p, {true, true, false}, source);
    // 2D, x halving, y kept, a Neumann face on y's far side.
    FaceGrid d = face_grid(2, {33, 6, 1});
    d.neumann[3] = true;
    check_rows_equal_faces(d, {true, false, false}, source);
    // 2D periodic x.
    FaceGrid w = face_grid(2, {16, 17, 1});
    w.periodic[0] = true;
    check_rows_equal_faces(w, {true, true, false}, source);
  }
}
