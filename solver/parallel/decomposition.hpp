// The Cartesian split of a case's grid over the ranks: ranks per axis, each rank's sub-box
// (as equal as the sizes allow) and its neighbours. Pure arithmetic: the same on every rank,
// so any rank can tell where any other rank's nodes are (gathers, restarts).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "case.hpp"
#include "subdomain.hpp"

namespace fdsolve::parallel {

class Comm;

struct Decomposition {
  int dims = 2;
  int size = 1;                       // ranks in all
  std::array<int, 3> ranks{1, 1, 1};  // ranks per axis
  int rank = 0;
  std::array<int, 3> coords{0, 0, 0};  // this rank's position in the rank grid
  /// The rank beyond each face (x_min, x_max, ...): -1 where the face is physical.
  std::array<int, 6> neighbour{-1, -1, -1, -1, -1, -1};
  Subdomain sub;

  /// The rank at rank-grid position `coords` (x fastest, as the nodes are stored).
  int rank_at(std::array<int, 3> coords) const;
  /// Rank `r`'s sub-box.
  Subdomain subdomain_of(int r) const;

  std::array<bool, 3> periodic_{};  // set by decompose: periodic axes wrap across ranks
  /// Per axis, where the ranks' boxes start: cuts[a][i] is the first node of position i on
  /// axis a, cuts[a][ranks[a]] the axis's node count.
  std::array<std::vector<index_t>, 3> cuts;
};

/// [lo, hi) of part `i` of `n` nodes split into `parts`: the first n % parts parts get one
/// node more.
std::array<index_t, 2> split_range(index_t n, int parts, int i);

/// Ranks per axis for `size` ranks: parallel.ranks when given (entries 0 chosen by
/// MPI_Dims_create), else MPI_Dims_create's balanced factors, the largest on the axis with the
/// most nodes (ties to the later axis, whose faces are contiguous in memory). Throws InputError
/// when the product is not `size` or a rank would own fewer than 2 nodes on an axis.
std::array<int, 3> choose_ranks(const Case& c, const Comm& comm);

/// Rank `rank` of the split of `c` into `ranks` (from choose_ranks).
Decomposition decompose(const Case& c, std::array<int, 3> ranks, int rank);

/// The same split with the box boundaries given per axis (`cuts`, as Decomposition::cuts) over
/// a grid of `global` nodes: multigrid's aligned splits and its coarser levels.
Decomposition decompose_cuts(int dims, std::array<index_t, 3> global, std::array<bool, 3> periodic,
                             std::array<int, 3> ranks, int rank,
                             std::array<std::vector<index_t>, 3> cuts);

/// The largest and the smallest rank box, "17x9 .. 16x9" (one size when all are equal).
std::string box_range(const Decomposition& d);

/// One line: "2 x 1 ranks, 17x9 .. 16x9 nodes per rank".
std::string describe(const Decomposition& d);

}  // namespace fdsolve::parallel
