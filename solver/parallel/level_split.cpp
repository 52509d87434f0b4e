// The aligned split of multigrid's levels (see level_split.hpp).
#include "level_split.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "case_reader.hpp"
#include "transport.hpp"

namespace fdsolve::parallel {
namespace {

using Cuts = std::array<std::vector<index_t>, 3>;

/// The fine cuts with every inner boundary a multiple of `q` on split axes: the axis's
/// intervals (n - 1, or n when periodic) in blocks of q, the blocks split as equally as
/// split_range does (the first parts one block longer); nothing when a part would get none.
std::optional<Cuts> aligned_cuts(const Case& c, std::array<index_t, 3> n, std::array<int, 3> ranks,
                                 index_t q) {
  Cuts cuts;
  for (int a = 0; a < 3; ++a) {
    cuts[a].push_back(0);
    if (ranks[a] > 1) {
      const bool periodic = a < c.grid.dims && c.grid.periodic[a];
      const index_t blocks = (periodic ? n[a] : n[a] - 1) / q;
      if (blocks < ranks[a]) return std::nullopt;
      for (int i = 1; i < ranks[a]; ++i) cuts[a].push_back(split_range(blocks, ranks[a], i)[0] * q);
    }
    cuts[a].push_back(n[a]);
  }
  return cuts;
}

/// How an axis passes from one level to the next coarser one.
enum class Step { Halves, Keeps, Other };

Step step_of(index_t fine, index_t coarse, bool periodic) {
  if (coarse == fine) return Step::Keeps;
  const bool halves = periodic ? fine == 2 * coarse : fine - 1 == 2 * (coarse - 1);
  return halves ? Step::Halves : Step::Other;
}

/// halvings[l][a]: how many of the steps from the fine level to level l halve axis a.
using Halvings = std::vector<std::array<int, 3>>;

/// The cuts of level `l`: the fine ones halved as often as the axis halved by then (exact:
/// they are multiples of 2^l), the last the level's node count.
Cuts level_cuts(const Cuts& fine, const Halvings& halvings, int l,
                const std::array<index_t, 3>& n) {
  Cuts cuts = fine;
  for (int a = 0; a < 3; ++a) {
    for (index_t& cut : cuts[a]) cut >>= halvings[l][a];
    cuts[a].back() = n[a];
  }
  return cuts;
}

/// The smallest box a rank gets, in nodes, and its smallest extent on a split axis.
std::array<index_t, 2> smallest_box(const Cuts& cuts) {
  index_t axis_min = -1;
  std::array<index_t, 3> least{};
  for (int a = 0; a < 3; ++a) {
    least[a] = -1;
    for (std::size_t i = 0; i + 1 < cuts[a].size(); ++i) {
      const index_t extent = cuts[a][i + 1] - cuts[a][i];
      if (least[a] < 0 || extent < least[a]) least[a] = extent;
      if (cuts[a].size() > 2 && (axis_min < 0 || extent < axis_min)) axis_min = extent;
    }
  }
  return {least[0] * least[1] * least[2], axis_min < 0 ? least[0] : axis_min};
}

}  // namespace

LevelSplit split_levels(const Case& c, const std::vector<std::array<index_t, 3>>& points,
                        std::array<int, 3> ranks, int rank) {
  const int levels = static_cast<int>(points.size());
  std::array<bool, 3> periodic{};
  for (int a = 0; a < c.grid.dims; ++a) periodic[a] = c.grid.periodic[a];
  if (ranks[0] * ranks[1] * ranks[2] == 1) {  // one rank: every level whole
    LevelSplit s;
    s.gather = s.levels = levels;
    for (int l = 0; l < levels; ++l) {
      std::array<std::vector<index_t>, 3> cuts;
      for (int a = 0; a < 3; ++a) cuts[a] = {0, points[l][a]};
      s.level.push_back(decompose_cuts(c.grid.dims, points[l], periodic, ranks, 0, cuts));
    }
    return s;
  }
  // A split level's box must be the even nodes (or the same nodes) of the finer box on every
  // split axis: the transfers of non-nested levels read beyond a one-node halo, so the split
  // ends, at the latest, with the level before the first such step.
  Halvings halvings(levels, std::array<int, 3>{0, 0, 0});
  // The coarsest level is always gathered: rank 0 solves it by CG as one rank does, so that
  // every rank count gives the one-rank answer bit for bit (a split coarsest grid would be
  // solved by sweeps).
  int deepest = std::max(1, levels - 1);
  for (int l = 1; l < levels; ++l) {
    halvings[l] = halvings[l - 1];
    for (int a = 0; a < 3; ++a) {
      const Step step = step_of(points[l - 1][a], points[l][a], periodic[a]);
      if (step == Step::Halves) ++halvings[l][a];
      if (step == Step::Other && ranks[a] > 1) deepest = std::min(deepest, l - 1);
    }
  }
  if (deepest < 1)
    throw InputError(fmt::format(
        "{}multigrid over {} ranks: the grid {} does not coarsen by halving along a split axis "
        "(n - 1 odd, or n odd on a periodic axis), and levels that do not nest cannot be split "
        "yet; use n - 1 even on the split axes (e.g. 2^k + 1 nodes), split other axes "
        "(parallel.ranks), one rank, or solve.method: jacobi",
        c.where("parallel.ranks"), ranks[0] * ranks[1] * ranks[2],
        fmt::join(points[0].begin(), points[0].begin() + c.grid.dims, "x")));
  const index_t gather_below = gather_threshold(c.parallel);
  // The deepest gather level first: fewer exchanges on small levels, the alignment permitting.
  for (int gather = deepest; gather >= 1; --gather) {
    const int m = std::min(gather, levels - 1);  // coarsenings the split must follow
    const index_t q = index_t(1) << m;
    const std::optional<Cuts> fine = aligned_cuts(c, points[0], ranks, q);
    if (!fine) continue;
    bool fits = true;
    for (int l = 0; l <= m && fits; ++l) {
      const auto [cells, axis] = smallest_box(level_cuts(*fine, halvings, l, points[l]));
      fits = axis >= 2 && (l == 0 || l >= gather || cells >= gather_below);
    }
    if (!fits) continue;
    LevelSplit s;
    s.gather = gather;
    s.levels = levels;
    s.alignment = q;
    for (int l = 0; l <= m; ++l)
      s.level.push_back(decompose_cuts(c.grid.dims, points[l], periodic, ranks, rank,
                                       level_cuts(*fine, halvings, l, points[l])));
    return s;
  }
  throw InputError(fmt::format(
      "{}multigrid over {} ranks ({}): the grid {} cannot be split so that each rank keeps at "
      "least 2 nodes per split axis on the first coarser grid (box boundaries on even nodes); "
      "use fewer ranks or solve.method: jacobi",
      c.where("parallel.ranks"), ranks[0] * ranks[1] * ranks[2],
      fmt::join(ranks.begin(), ranks.begin() + c.grid.dims, " x "),
      fmt::join(points[0].begin(), points[0].begin() + c.grid.dims, "x")));
}

index_t gather_threshold(const ParallelSpec& p) {
  if (p.gather_below) return *p.gather_below;
  return device_transport_connected() && p.coarse_levels != CoarseLevels::Gather
             ? kGatherBelowDevice
             : kGatherBelowHost;
}

std::vector<std::string> describe_levels(const LevelSplit& s,
                                         const std::vector<std::array<index_t, 3>>& points,
                                         index_t gather_below, CoarseLevels coarse) {
  std::vector<std::string> lines;
  const int dims = s.level[0].dims;
  lines.push_back(fmt::format(
      "multigrid levels over the ranks: box boundaries on multiples of {} fine nodes (each "
      "rank owns the even nodes of its box on the next level)",
      s.alignment));
  for (int l = 0; l < s.gather; ++l)
    lines.push_back(fmt::format("  level {}: {} nodes per rank", l, box_range(s.level[l])));
  if (s.gather < s.levels) {
    const int last = s.levels - 1;
    const index_t smallest = smallest_box(s.level[s.gather].cuts)[0];
    const std::string why =
        smallest < gather_below
            ? fmt::format(
                  "split, a rank would keep {} nodes, fewer than parallel.gather_below = {}",
                  box_range(s.level[s.gather]), gather_below)
            : std::string(
                  "a split aligned for it would leave a rank fewer than 2 nodes of an "
                  "axis");
    const std::string what = s.gather == last ? "the bottom solve" : "these levels and the bottom solve";
    const std::string gather = "rank 0 runs " + what + " alone and sends the correction back";
    const std::string redundant =
        "every rank gathers the right-hand side and runs " + what + " itself";
    const std::string how =
        coarse == CoarseLevels::Gather      ? gather
        : coarse == CoarseLevels::Redundant ? redundant
                                            : "on GPU ranks whose halo travels through NCCL " +
                                                  redundant + ", else " + gather +
                                                  " (parallel.coarse_levels: auto)";
    lines.push_back(fmt::format("  level {}{}: gathered ({} nodes; {}); {}", s.gather,
                                s.gather == last ? "" : fmt::format("-{}", last),
                                fmt::join(points[s.gather].begin(), points[s.gather].begin() + dims, "x"),
                                why, how));
  } else {
    lines.push_back("  every level split, the bottom solve too (no level is gathered)");
  }
  return lines;
}

}  // namespace fdsolve::parallel
