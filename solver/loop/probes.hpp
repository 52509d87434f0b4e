// The probes of output.probes: u at a point of the grid, by multilinear interpolation of the
// 2^dims nodes of the cell the point falls in. Over several ranks each rank reads the nodes it
// owns and rank 0 combines them in one fixed order, so the values are those of one rank, bit
// for bit.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backend.hpp"
#include "case.hpp"
#include "parallel/comm.hpp"
#include "parallel/subdomain.hpp"

namespace fdsolve {

/// Where a probe falls: per axis the node at or below it, the next node (node 0 past the last
/// one of a periodic axis) and the fraction of the spacing between them (0 on a node).
struct ProbeCell {
  std::array<index_t, 3> node{0, 0, 0};
  std::array<index_t, 3> next{0, 0, 0};
  std::array<double, 3> fraction{0, 0, 0};
};

/// A coordinate within this many spacings of a node is taken as the node: a point written in
/// decimal (x = 0.3 on a spacing of 0.1) then reads the node's value, not a blend with its
/// neighbour at a weight of 1e-16.
inline constexpr double kOnNode = 1e-9;

/// The cell of each of the case's probes (their points are checked to lie in the grid).
std::vector<ProbeCell> locate_probes(const Case& c);

/// One line per probe for `check`: its point and the node it sits on or the cell it falls in.
std::vector<std::string> describe_probes(const Case& c);

/// The weight of corner `corner` (bit a: the next node on axis a) of `cell`.
double corner_weight(const ProbeCell& cell, int dims, int corner);

/// Samples u at the probes of a case on the nodes `sub` of a field of layout L.
template <typename T>
class ProbeSampler {
 public:
  ProbeSampler(const Case& c, Backend<T>& backend, const Layout& L, const Subdomain& sub,
               const parallel::Comm& comm);

  /// The value at each probe on rank 0 (empty on the others). Collective over the ranks.
  std::vector<double> sample(const Buffer<T>& u);

 private:
  /// A corner of a probe's cell that this rank owns: its slot (probe x 2^dims + corner) and its
  /// box of one node in the rank's field.
  struct OwnedCorner {
    std::int32_t slot = 0;
    Box box;
  };
  struct SlotValue {
    std::int32_t slot = 0;
    double value = 0;
  };

  int dims_;
  Backend<T>& backend_;
  const Layout& L_;
  const parallel::Comm& comm_;
  std::vector<ProbeCell> cells_;
  std::vector<OwnedCorner> owned_;
  Buffer<T> one_;  // a node packed on the backend, to download
};

extern template class ProbeSampler<float>;
extern template class ProbeSampler<double>;

}  // namespace fdsolve
