// The halo fill of the CPU backend against ghost values worked out by hand: mirrored Neumann
// ghosts with a constant and a per-node offset, periodic wrap-around, and the edge and corner
// ghosts that combine two or three faces' rules.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "backend.hpp"
#include "case.hpp"

using namespace fdsolve;

namespace {

/// A field of layout L whose owned node (i, j, k) holds 100 i + 10 j + k; the halo holds -1.
std::vector<double> numbered(const Layout& L) {
  std::vector<double> u(static_cast<std::size_t>(L.size), -1.0);
  for (index_t k = 0; k < L.n[2]; ++k)
    for (index_t j = 0; j < L.n[1]; ++j)
      for (index_t i = 0; i < L.n[0]; ++i) u[L.at(i, j, k)] = 100.0 * i + 10.0 * j + k;
  return u;
}

}  // namespace

TEST_CASE("halo fill: 2D mirror with offsets and periodic wrap, corners included") {
  auto cpu = make_cpu_backend<double>();
  const Layout L = Layout::make(2, {5, 4, 1}, 16);
  std::vector<double> u = numbered(L);
  HaloFillArgs<double> a;
  a.field = u.data();
  a.layout = L;
  a.faces[XMin] = {GhostRule::Mirror, 0.5, nullptr};
  a.faces[XMax] = {GhostRule::Mirror, -2.0, nullptr};
  a.faces[YMin] = {GhostRule::Wrap, 0.0, nullptr};
  a.faces[YMax] = {GhostRule::Wrap, 0.0, nullptr};
  cpu->fill_halo(a);
  // x ghosts mirror node 1 (or n-2 = 3) plus the offset.
  CHECK(u[L.at(-1, 2)] == 100 + 20 + 0.5);
  CHECK(u[L.at(5, 2)] == 300 + 20 - 2.0);
  // y ghosts wrap: row -1 is row 3, row 4 is row 0, including the x ghosts of those rows.
  CHECK(u[L.at(2, -1)] == 200 + 30);
  CHECK(u[L.at(2, 4)] == 200 + 0);
  CHECK(u[L.at(-1, -1)] == 100 + 30 + 0.5);
  CHECK(u[L.at(5, 4)] == 300 + 0 - 2.0);
}

TEST_CASE("halo fill: 3D corners combine three mirrored faces; per-node offsets") {
  auto cpu = make_cpu_backend<double>();
  const Layout L = Layout::make(3, {4, 5, 6}, 16);
  std::vector<double> u = numbered(L);
  // Per-node offsets on the z_min face: the array spans x and y with their halo.
  const HaloAxis hz = halo_axis(L, 2);
  std::vector<double> zoff(static_cast<std::size_t>(hz.face_size()));
  for (index_t j = -1; j <= 5; ++j)
    for (index_t i = -1; i <= 4; ++i) zoff[hz.face_index(i, j)] = 1000.0 * (i + 2) + (j + 2);
  HaloFillArgs<double> a;
  a.field = u.data();
  a.layout = L;
  a.faces[XMin] = {GhostRule::Mirror, 1.0, nullptr};
  a.faces[YMin] = {GhostRule::Mirror, 2.0, nullptr};
  a.faces[ZMin] = {GhostRule::Mirror, 0.0, zoff.data()};
  a.faces[ZMax] = {GhostRule::Wrap, 0.0, nullptr};
  cpu->fill_halo(a);
  CHECK(u[L.at(-1, 3, 2)] == 100 + 30 + 2 + 1.0);
  CHECK(u[L.at(2, -1, 2)] == 200 + 10 + 2 + 2.0);
  // Edge (-1, -1, k): x mirror, then y mirror of that ghost.
  CHECK(u[L.at(-1, -1, 4)] == 100 + 10 + 4 + 1.0 + 2.0);
  // Corner (-1, -1, -1): all three, with the z offset of face node (-1, -1).
  CHECK(u[L.at(-1, -1, -1)] == 100 + 10 + 1 + 1.0 + 2.0 + (1000.0 * 1 + 1));
  // z_max wraps to plane 0, carrying the x and y ghosts of plane 0.
  CHECK(u[L.at(3, 4, 6)] == 300 + 40 + 0);
  CHECK(u[L.at(-1, -1, 6)] == 100 + 10 + 0 + 1.0 + 2.0);
  // Faces without a rule leave their halo alone.
  CHECK(u[L.at(4, 2, 2)] == -1.0);
  CHECK(u[L.at(2, 5, 2)] == -1.0);
}

TEST_CASE("write_box: dense values land on exactly the box's nodes") {
  auto cpu = make_cpu_backend<float>();
  const Layout L = Layout::make(3, {6, 5, 4}, 32);
  Buffer<float> f = cpu->allocate(L.size);
  const Box box{{1, 4, 0}, {5, 5, 3}};  // an x-z slab on the y_max face
  std::vector<float> values(static_cast<std::size_t>(box.cells()));
  for (std::size_t n = 0; n < values.size(); ++n) values[n] = static_cast<float>(n + 1);
  cpu->write_box(f, L, box, values.data());
  std::vector<float> host(static_cast<std::size_t>(L.size));
  cpu->download(host.data(), f, L.size);
  float sum = 0;
  for (float v : host) sum += v;
  CHECK(sum == doctest::Approx(values.size() * (values.size() + 1) / 2.0));
  CHECK(host[L.at(1, 4, 0)] == 1.0f);
  CHECK(host[L.at(4, 4, 0)] == 4.0f);
  CHECK(host[L.at(1, 4, 1)] == 5.0f);
  CHECK(host[L.at(4, 4, 2)] == 12.0f);
}
