// Multigrid's split over ranks: every split level's box is exactly the even nodes of the finer
// level's box on the axes that coarsen (the same nodes on those semi-coarsening keeps) (what lets the transfers read only a one-node halo), the split keeps the gather
// threshold, and the gather level is the deepest the alignment allows.
#include <doctest/doctest.h>

#include "case.hpp"
#include "case_reader.hpp"
#include "multigrid/hierarchy.hpp"
#include "parallel/level_split.hpp"

using namespace fdsolve;

namespace {

Case grid_case(std::array<std::int64_t, 3> points, int dims, std::int64_t gather_below,
               bool periodic_x = false) {
  Case c;
  c.grid.dims = dims;
  c.grid.points = points;
  for (int a = 0; a < dims; ++a) c.grid.extent[a] = 1.0;
  c.grid.periodic[0] = periodic_x;
  if (periodic_x) c.boundary[0].type = c.boundary[1].type = BoundaryType::Periodic;
  c.parallel.gather_below = gather_below;
  return c;
}

parallel::LevelSplit split(const Case& c, std::array<int, 3> ranks, int rank) {
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(c));
  return parallel::split_levels(c, multigrid::level_points(levels), ranks, rank);
}

}  // namespace

TEST_CASE("split_levels: each split level owns the even nodes of the finer box") {
  struct Row {
    std::array<std::int64_t, 3> points;
    int dims;
    std::array<int, 3> ranks;
    std::int64_t gather_below;
    bool periodic_x;
  };
  for (const Row& row : {Row{{33, 17, 1}, 2, {3, 1, 1}, 0, false},
                         Row{{64, 33, 1}, 2, {3, 2, 1}, 20, true},
                         Row{{129, 65, 1}, 2, {4, 1, 1}, 0, false},
                         Row{{17, 33, 16}, 3, {1, 2, 2}, 0, false},
                         Row{{32, 9, 9}, 3, {3, 1, 1}, 10, true}}) {
    const Case c = grid_case(row.points, row.dims, row.gather_below, row.periodic_x);
    const int size = row.ranks[0] * row.ranks[1] * row.ranks[2];
    const parallel::LevelSplit first = split(c, row.ranks, 0);
    CAPTURE(row.points[0]);
    CHECK(first.gather >= 1);
    for (int r = 0; r < size; ++r) {
      const parallel::LevelSplit s = split(c, row.ranks, r);
      CHECK(s.gather == first.gather);
      const Subdomain fine = s.level[0].sub;
      for (int a = 0; a < row.dims; ++a) {
        // Box boundaries on multiples of the alignment (the grid's end aside).
        CHECK(fine.offset[a] % s.alignment == 0);
        CHECK(fine.n[a] >= 2);
      }
      for (std::size_t l = 1; l < s.level.size(); ++l) {
        const Subdomain& finer = s.level[l - 1].sub;
        const Subdomain& coarse = s.level[l].sub;
        for (int a = 0; a < row.dims; ++a) {
          if (coarse.global[a] == finer.global[a]) {  // an axis semi-coarsening keeps
            CHECK(coarse.offset[a] == finer.offset[a]);
            CHECK(coarse.n[a] == finer.n[a]);
            continue;
          }
          CHECK(2 * coarse.offset[a] == finer.offset[a]);
          CHECK(coarse.n[a] == (finer.n[a] + 1) / 2);  // the even nodes of an even-started box
          if (row.ranks[a] > 1) CHECK(coarse.n[a] >= 2);
        }
        if (static_cast<int>(l) < s.gather)
          CHECK(coarse.n[0] * coarse.n[1] * coarse.n[2] >= row.gather_below);
      }
    }
  }
}

TEST_CASE("split_levels: the gather level, by hand") {
  // 33 nodes over 3 ranks: aligned to 4 (8 blocks: 3, 3, 2) the level of 9 nodes keeps 2 per
  // rank, but aligned to 8 (4 blocks: 2, 1, 1) the level of 5 nodes would leave a rank 1.
  const parallel::LevelSplit a = split(grid_case({33, 17, 1}, 2, 0), {3, 1, 1}, 2);
  CHECK(a.gather == 2);
  CHECK(a.alignment == 4);
  CHECK(a.level[0].sub.offset[0] == 24);
  CHECK(a.level[0].sub.n[0] == 9);
  CHECK(a.level[2].sub.offset[0] == 6);
  CHECK(a.level[2].sub.n[0] == 3);
  // 129 x 129 on 2 ranks with the default threshold 4096: level 1 would keep 33 x 65 = 2145
  // nodes per rank, so it is gathered at once.
  const parallel::LevelSplit b = split(grid_case({129, 129, 1}, 2, 4096), {2, 1, 1}, 1);
  CHECK(b.gather == 1);
  CHECK(b.level[0].sub.offset[0] == 64);
  const auto lines =
      parallel::describe_levels(b, {{129, 129, 1}, {65, 65, 1}}, 4096, CoarseLevels::Gather);
  CHECK(lines.back().find(": gathered (65x65 nodes") != std::string::npos);
  CHECK(lines.back().find("rank 0 runs") != std::string::npos);
  CHECK(lines.back().find("sends the correction back") != std::string::npos);
  const auto everywhere =
      parallel::describe_levels(b, {{129, 129, 1}, {65, 65, 1}}, 4096, CoarseLevels::Redundant);
  CHECK(everywhere.back().find("every rank gathers the right-hand side") != std::string::npos);
  CHECK(everywhere.back().find("rank 0 runs") == std::string::npos);
  // One rank: every level whole, nothing gathered.
  const parallel::LevelSplit one = split(grid_case({33, 17, 1}, 2, 4096), {1, 1, 1}, 0);
  CHECK(one.gather == one.levels);
  // 33x17 at spacings 1/32 and 1/16: x coarsens alone first (semi-coarsening), then both.
  CHECK(one.level[1].sub.n == std::array<index_t, 3>{17, 17, 1});
  CHECK(one.level[3].sub.n == std::array<index_t, 3>{5, 5, 1});
}

TEST_CASE("split_levels: a grid too small for its ranks is bad input") {
  // 7 nodes over 3 ranks: the first coarser grid (4 nodes) cannot give each rank 2.
  CHECK_THROWS_AS(split(grid_case({7, 5, 1}, 2, 0), {3, 1, 1}, 0), InputError);
}

TEST_CASE("split_levels: levels that do not nest end the split or refuse it") {
  // x: 1000 -> 501 does not halve: a split along x has no level to follow it to.
  CHECK_THROWS_AS(split(grid_case({1000, 9, 1}, 2, 0), {2, 1, 1}, 0), InputError);
  // Split along y (65 -> 33 -> 17 -> 9 -> 5 -> 3 halves): x may coarsen any way it likes.
  const parallel::LevelSplit s = split(grid_case({1000, 1025, 1}, 2, 0), {1, 2, 1}, 1);
  CHECK(s.gather >= 1);
  // 9 -> 5 halves, 5 -> 3 halves; 10 -> 6 does not: the split ends before that level.
  const auto levels = multigrid::build_hierarchy(multigrid::fine_level(grid_case({17, 18, 1}, 2, 0)));
  CHECK(levels[1].n[1] == 10);
  CHECK_THROWS_AS(split(grid_case({17, 18, 1}, 2, 0), {1, 2, 1}, 0), InputError);
}

TEST_CASE("gather_threshold: the case's value, else the host path's default without NCCL") {
  ParallelSpec p;
  // No device exchange connected in this process (CPU ranks, check): 4096 whatever the mode.
  CHECK(parallel::gather_threshold(p) == kGatherBelowHost);
  p.coarse_levels = CoarseLevels::Redundant;
  CHECK(parallel::gather_threshold(p) == kGatherBelowHost);
  p.gather_below = 0;
  CHECK(parallel::gather_threshold(p) == 0);
  p.gather_below = 12345;
  CHECK(parallel::gather_threshold(p) == 12345);
}
