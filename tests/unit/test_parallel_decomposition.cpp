// The Cartesian split: ranges cover the axis as equally as possible, neighbours and exchanged
// faces follow the rank grid (periodic axes wrap), and every rank agrees on every sub-box.
#include <doctest/doctest.h>

#include "case.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/field_gather.hpp"
#include "problem/problem_setup.hpp"

using namespace fdsolve;

namespace {

Case grid_case(std::array<std::int64_t, 3> points, int dims) {
  Case c;
  c.grid.dims = dims;
  c.grid.points = points;
  for (int a = 0; a < dims; ++a) c.grid.extent[a] = static_cast<double>(points[a] - 1);
  return c;
}

}  // namespace

TEST_CASE("split_range: parts differ by at most one node and tile the axis") {
  for (index_t n : {2, 5, 17, 64, 101})
    for (int parts = 1; parts <= 5 && parts <= n; ++parts) {
      index_t next = 0;
      for (int i = 0; i < parts; ++i) {
        const auto [lo, hi] = parallel::split_range(n, parts, i);
        CHECK(lo == next);
        CHECK((hi - lo == n / parts || hi - lo == n / parts + 1));
        next = hi;
      }
      CHECK(next == n);
    }
}

TEST_CASE("decompose: neighbours, physical faces and periodic wrap") {
  Case c = grid_case({17, 9, 1}, 2);
  c.grid.periodic[1] = true;
  c.boundary[2].type = c.boundary[3].type = BoundaryType::Periodic;
  const std::array<int, 3> ranks{3, 2, 1};
  for (int r = 0; r < 6; ++r) {
    const parallel::Decomposition d = parallel::decompose(c, ranks, r);
    CHECK(d.rank_at(d.coords) == r);
    // x is not periodic: the end ranks keep their physical faces.
    CHECK((d.neighbour[0] < 0) == (d.coords[0] == 0));
    CHECK((d.neighbour[1] < 0) == (d.coords[0] == 2));
    CHECK(d.sub.physical(0) == (d.coords[0] == 0));
    // y is periodic over 2 ranks: both faces exchange, with the same neighbour.
    CHECK(d.neighbour[2] >= 0);
    CHECK(d.neighbour[2] == d.neighbour[3]);
    CHECK(!d.sub.physical(2));
    CHECK(!d.sub.physical(3));
    // Every rank computes the same sub-box for every rank.
    for (int other = 0; other < 6; ++other) {
      const Subdomain s = d.subdomain_of(other);
      const Subdomain t = parallel::decompose(c, ranks, other).sub;
      CHECK(s.offset == t.offset);
      CHECK(s.n == t.n);
      CHECK(s.exchanged == t.exchanged);
    }
  }
  CHECK(parallel::decompose(c, ranks, 0).sub.n == std::array<index_t, 3>{6, 5, 1});
  CHECK(parallel::decompose(c, ranks, 5).sub.n == std::array<index_t, 3>{5, 4, 1});
}

TEST_CASE("one rank: the whole grid, every face physical, the single-rank update box") {
  Case c = grid_case({9, 7, 5}, 3);
  const parallel::Decomposition d = parallel::decompose(c, {1, 1, 1}, 0);
  CHECK(d.sub.is_whole());
  for (int face = 0; face < 6; ++face) CHECK(d.sub.physical(face));
  const Box a = update_box(c), b = update_box(c, d.sub);
  CHECK(a.lo == b.lo);
  CHECK(a.hi == b.hi);
}

TEST_CASE("blocks_in_grid_order: exactly where the ranks' blocks in rank order are the grid") {
  // The reference: the whole field of distinct values cut into the ranks' blocks (split_field,
  // the reverse of the gather) equals the field itself exactly when the predicate holds.
  struct Row {
    std::array<std::int64_t, 3> points;
    int dims;
    std::array<int, 3> ranks;
    bool in_order;
  };
  const Row rows[] = {
      {{17, 9, 1}, 2, {1, 3, 1}, true},   // 2D, the slowest axis (y) split
      {{17, 9, 1}, 2, {3, 1, 1}, false},  // 2D, x split
      {{17, 9, 1}, 2, {2, 2, 1}, false},
      {{9, 7, 5}, 3, {1, 1, 3}, true},    // 3D, z split
      {{9, 7, 5}, 3, {1, 2, 1}, false},   // 3D, y split: rows, not planes
      {{9, 7, 5}, 3, {1, 2, 2}, false},
      {{9, 7, 5}, 3, {1, 1, 1}, true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.dims);
    CAPTURE(row.ranks[0]);
    CAPTURE(row.ranks[1]);
    CAPTURE(row.ranks[2]);
    const Case c = grid_case(row.points, row.dims);
    const parallel::Decomposition d = parallel::decompose(c, row.ranks, 0);
    std::vector<double> whole(static_cast<std::size_t>(row.points[0] * row.points[1] * row.points[2]));
    for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = static_cast<double>(i);
    std::vector<std::size_t> bytes;
    const std::vector<double> blocks = parallel::split_field(d, whole, bytes);
    CHECK(parallel::blocks_in_grid_order(d) == row.in_order);
    CHECK((blocks == whole) == row.in_order);
  }
}
