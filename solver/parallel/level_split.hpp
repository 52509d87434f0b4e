// How multigrid's levels are split over the ranks. With node-centred coarsening (coarse node I
// on fine node 2I) a rank whose fine box starts and ends on multiples of 2^m owns, on each of
// the m coarser levels, exactly the even nodes of its finer box: restriction and prolongation
// then read only the nodes of the rank and its one-node halo, with local parity equal to
// global parity. The fine split is therefore aligned to 2^m (as equal as that allows), and the
// coarse levels follow it until a rank's box falls below `parallel.gather_below` nodes: that
// level and the coarser ones run on rank 0 alone (agglomeration), which receives the level's
// right-hand side and sends back its correction. Pure arithmetic, the same on every rank.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "decomposition.hpp"

namespace fdsolve::parallel {

struct LevelSplit {
  /// The decomposition of each level split over the ranks (0 .. gather - 1) and, when
  /// gather < levels, of the gather level itself: the transfers to and from it run split, its
  /// right-hand side is gathered to rank 0 and its correction scattered back.
  std::vector<Decomposition> level;
  /// The first level solved on rank 0 alone; the number of levels when every level is split.
  int gather = 1;
  int levels = 1;
  /// The fine split's box boundaries are multiples of this on every split axis.
  index_t alignment = 1;

  /// Whether level `l` is split over the ranks (else it runs on rank 0 alone).
  bool split(int l) const { return l < gather; }
};

/// The split of a hierarchy with `points[l]` nodes per axis on level l (fine first) over the
/// rank grid `ranks`, seen by rank `rank`: the deepest gather level whose aligned split keeps
/// every split level at `gather_below` nodes per rank or more, and at least 2 nodes per rank
/// on each split axis of every split level and of the gather level (the Neumann mirror reads
/// the node next to the face). Throws InputError when not even the first coarsening can be
/// split that way (a grid too small for its ranks).
LevelSplit split_levels(const Case& c, const std::vector<std::array<index_t, 3>>& points,
                        std::array<int, 3> ranks, int rank);

/// parallel.gather_below, or where the case leaves it unset its default: kGatherBelowDevice
/// when this process's halos travel through NCCL (device_transport_connected) and the gathered
/// levels then run on every rank, else kGatherBelowHost. A run connects its transport before it
/// splits anything, so every split of the run sees the same threshold; `check`, which connects
/// nothing, describes the host path's.
index_t gather_threshold(const ParallelSpec& p);

/// The lines `fdsolve check` prints: the fine split, each split level's boxes per rank, and
/// where the levels are gathered onto rank 0.
std::vector<std::string> describe_levels(const LevelSplit& s,
                                         const std::vector<std::array<index_t, 3>>& points,
                                         index_t gather_below, CoarseLevels coarse);

}  // namespace fdsolve::parallel
