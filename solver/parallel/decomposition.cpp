// The Cartesian split of the grid (see decomposition.hpp).
#include "decomposition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "case_reader.hpp"
#include "comm.hpp"

namespace fdsolve::parallel {

std::array<index_t, 2> split_range(index_t n, int parts, int i) {
  const index_t base = n / parts, extra = n % parts;
  const index_t lo = i * base + std::min<index_t>(i, extra);
  return {lo, lo + base + (i < extra ? 1 : 0)};
}

std::array<int, 3> choose_ranks(const Case& c, const Comm& comm) {
  const int dims = c.grid.dims;
  std::array<int, 3> given = c.parallel.ranks;
  for (int a = dims; a < 3; ++a) given[a] = 0;
  const bool any_given = std::any_of(given.begin(), given.begin() + dims, [](int r) { return r; });
  std::array<int, 3> ranks{1, 1, 1};
  if (any_given) {
    int fixed = 1;
    for (int a = 0; a < dims; ++a) fixed *= given[a] > 0 ? given[a] : 1;
    if (comm.size() % fixed != 0)
      throw InputError(fmt::format(
          "{}parallel.ranks: [{}] does not divide the {} ranks", c.where("parallel.ranks"),
          fmt::join(given.begin(), given.begin() + dims, ", "), comm.size()));
    ranks = comm.dims_create(dims, given);
  } else {
    const std::array<int, 3> factors = comm.dims_create(dims, {0, 0, 0});  // non-increasing
    std::array<int, 3> axes{0, 1, 2};
    std::stable_sort(axes.begin(), axes.begin() + dims, [&](int a, int b) {
      return c.grid.points[a] != c.grid.points[b] ? c.grid.points[a] > c.grid.points[b] : a > b;
    });
    for (int i = 0; i < dims; ++i) ranks[axes[i]] = factors[i];
  }
  int product = 1;
  for (int a = 0; a < dims; ++a) product *= ranks[a];
  if (product != comm.size())
    throw InputError(fmt::format(
        "{}parallel.ranks: [{}] makes {} ranks, but {} are running", c.where("parallel.ranks"),
        fmt::join(ranks.begin(), ranks.begin() + dims, ", "), product, comm.size()));
  for (int a = 0; a < dims; ++a)
    if (c.grid.points[a] < 2 * static_cast<index_t>(ranks[a]) && ranks[a] > 1)
      throw InputError(fmt::format(
          "{}parallel.ranks: {} ranks on axis {} of {} nodes leave a rank fewer than 2 nodes "
          "(the Neumann mirror and the halo exchange need 2); use fewer ranks",
          c.where("parallel.ranks"), ranks[a], "xyz"[a], c.grid.points[a]));
  return ranks;
}

int Decomposition::rank_at(std::array<int, 3> at) const {
  return at[0] + ranks[0] * (at[1] + ranks[1] * at[2]);
}

Subdomain Decomposition::subdomain_of(int r) const {
  const std::array<int, 3> at{r % ranks[0], (r / ranks[0]) % ranks[1], r / (ranks[0] * ranks[1])};
  Subdomain s;
  s.global = sub.global;
  for (int a = 0; a < 3; ++a) {
    s.offset[a] = cuts[a][at[a]];
    s.n[a] = cuts[a][at[a] + 1] - cuts[a][at[a]];
  }
  s.exchanged = sub.exchanged;  // overwritten below for the rank's own position
  for (int face = 0; face < 6; ++face) {
    const int a = face / 2;
    const bool inner = face % 2 == 0 ? at[a] > 0 : at[a] < ranks[a] - 1;
    s.exchanged[face] = ranks[a] > 1 && (inner || periodic_[a]);
  }
  return s;
}

Decomposition decompose(const Case& c, std::array<int, 3> ranks, int rank) {
  const Subdomain whole = Subdomain::whole(c);
  std::array<std::vector<index_t>, 3> cuts;
  std::array<bool, 3> periodic{};
  for (int a = 0; a < 3; ++a) {
    periodic[a] = a < c.grid.dims && c.grid.periodic[a];
    for (int i = 0; i < ranks[a]; ++i)
      cuts[a].push_back(split_range(whole.global[a], ranks[a], i)[0]);
    cuts[a].push_back(whole.global[a]);
  }
  return decompose_cuts(c.grid.dims, whole.global, periodic, ranks, rank, std::move(cuts));
}

Decomposition decompose_cuts(int dims, std::array<index_t, 3> global, std::array<bool, 3> periodic,
                             std::array<int, 3> ranks, int rank,
                             std::array<std::vector<index_t>, 3> cuts) {
  Decomposition d;
  d.dims = dims;
  d.ranks = ranks;
  d.size = ranks[0] * ranks[1] * ranks[2];
  d.rank = rank;
  d.coords = {rank % ranks[0], (rank / ranks[0]) % ranks[1], rank / (ranks[0] * ranks[1])};
  d.periodic_ = periodic;
  d.cuts = std::move(cuts);
  d.sub.global = global;
  d.sub = d.subdomain_of(rank);
  for (int face = 0; face < 2 * dims; ++face) {
    if (!d.sub.exchanged[face]) continue;
    const int a = face / 2;
    std::array<int, 3> at = d.coords;
    at[a] = (at[a] + (face % 2 == 0 ? ranks[a] - 1 : 1)) % ranks[a];
    d.neighbour[face] = d.rank_at(at);
  }
  return d;
}

std::string box_range(const Decomposition& d) {
  index_t most = 0, fewest = -1;
  std::string big, small;
  for (int r = 0; r < d.size; ++r) {
    const Subdomain s = d.subdomain_of(r);
    const index_t cells = s.n[0] * s.n[1] * s.n[2];
    const std::string text = fmt::format("{}", fmt::join(s.n.begin(), s.n.begin() + d.dims, "x"));
    if (cells > most) most = cells, big = text;
    if (fewest < 0 || cells < fewest) fewest = cells, small = text;
  }
  return big == small ? big : big + " .. " + small;
}

std::string describe(const Decomposition& d) {
  return fmt::format("{} ranks ({}), {} nodes per rank", d.size,
                     fmt::join(d.ranks.begin(), d.ranks.begin() + d.dims, " x "), box_range(d));
}

}  // namespace fdsolve::parallel
