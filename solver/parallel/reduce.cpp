// Deterministic reductions of check statistics (see reduce.hpp).
#include "reduce.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <type_traits>

#include "halo_exchange.hpp"

namespace fdsolve::parallel {
namespace {

/// Diagnostics as one trivially copyable block (its vector of nodes as a fixed array), in
/// global node indices, so that MPI_Allgather can carry it.
struct PackedDiagnostics {
  std::int64_t nodes, nonfinite, nonfinite_count, updated;
  double min, max, sum, sum_sq, linf;
  std::array<std::int64_t, 3> nonfinite_at[kMaxNonfiniteLocations];
  std::array<std::int64_t, 3> linf_at;
  std::array<std::int64_t, kHistBins> histogram;
};
static_assert(std::is_trivially_copyable_v<PackedDiagnostics>);

std::array<std::int64_t, 3> to_global(const Subdomain& sub, std::array<std::int64_t, 3> node) {
  if (node[0] < 0) return node;  // {-1, -1, -1}: no node
  for (int a = 0; a < 3; ++a) node[a] += sub.offset[a];
  return node;
}

/// C-order index of a global node (k, then j, then i): the order "first" refers to.
std::int64_t linear(const Subdomain& sub, const std::array<std::int64_t, 3>& node) {
  if (node[0] < 0) return -1;
  return (node[2] * sub.global[1] + node[1]) * sub.global[0] + node[0];
}

template <typename T>
std::vector<T> gather_all(const Comm& comm, const T& mine) {
  const std::vector<char> bytes = comm.allgather(&mine, sizeof(T));
  std::vector<T> all(static_cast<std::size_t>(comm.size()));
  std::memcpy(all.data(), bytes.data(), bytes.size());
  return all;
}

}  // namespace

SweepStats reduce_stats(const Comm& comm, const SweepStats& mine) {
  if (!comm.several()) return mine;
  SweepStats total;
  for (const SweepStats& s : gather_all(comm, mine)) total.merge(s);
  return total;
}

SweepStats timed_reduce_stats(const Comm& comm, const SweepStats& mine, double& seconds) {
  int no_stop = 0;
  return timed_reduce_stats(comm, mine, no_stop, seconds);
}

SweepStats timed_reduce_stats(const Comm& comm, const SweepStats& mine, int& stop,
                              double& seconds) {
  if (!comm.several()) return mine;
  struct WithStop {
    SweepStats stats;
    int stop;
  };
  static_assert(std::is_trivially_copyable_v<WithStop>);
  const auto start = std::chrono::steady_clock::now();
  SweepStats total;
  for (const WithStop& s : gather_all(comm, WithStop{mine, stop})) {
    total.merge(s.stats);
    stop = std::max(stop, s.stop);
  }
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

Diagnostics reduce_diagnostics(const Comm& comm, const Diagnostics& mine, const Subdomain& sub) {
  if (!comm.several()) return mine;
  PackedDiagnostics p{};
  p.nodes = mine.nodes;
  p.nonfinite = mine.nonfinite;
  p.nonfinite_count = static_cast<std::int64_t>(mine.nonfinite_at.size());
  p.updated = mine.updated;
  p.min = mine.min;
  p.max = mine.max;
  p.sum = mine.sum;
  p.sum_sq = mine.sum_sq;
  p.linf = mine.linf;
  for (std::size_t i = 0; i < mine.nonfinite_at.size() && i < kMaxNonfiniteLocations; ++i)
    p.nonfinite_at[i] = to_global(sub, mine.nonfinite_at[i]);
  p.linf_at = to_global(sub, mine.linf_at);
  p.histogram = mine.histogram;

  Diagnostics d;
  double sum = 0;
  std::int64_t linf_index = -1;
  std::vector<std::array<std::int64_t, 3>> nonfinite_at;
  for (const PackedDiagnostics& r : gather_all(comm, p)) {
    d.nodes += r.nodes;
    d.nonfinite += r.nonfinite;
    d.updated += r.updated;
    d.min = std::fmin(d.min, r.min);
    d.max = std::fmax(d.max, r.max);
    sum += r.sum;
    d.sum_sq += r.sum_sq;
    for (int b = 0; b < kHistBins; ++b) d.histogram[b] += r.histogram[b];
    for (std::int64_t i = 0; i < r.nonfinite_count; ++i) nonfinite_at.push_back(r.nonfinite_at[i]);
    // Each rank's node already ranks first among its own (local C order is global C order
    // within a box), so the global choice is among these.
    const std::int64_t at = linear(sub, r.linf_at);
    if (ranks_above(r.linf, at, d.linf, linf_index)) {
      d.linf = r.linf;
      d.linf_at = r.linf_at;
      linf_index = at;
    }
  }
  if (linf_index < 0) d.linf = 0;  // no rank updated a node
  // The first kMaxNonfiniteLocations in global C order: each rank sent its first ones.
  std::sort(nonfinite_at.begin(), nonfinite_at.end(),
            [&](const auto& a, const auto& b) { return linear(sub, a) < linear(sub, b); });
  if (nonfinite_at.size() > kMaxNonfiniteLocations) nonfinite_at.resize(kMaxNonfiniteLocations);
  d.nonfinite_at = std::move(nonfinite_at);
  std::int64_t running = 0;
  for (int b = 0; b < kHistBins; ++b) d.cdf[b] = running += d.histogram[b];
  d.finish(sum);
  return d;
}

output::ParallelSummary parallel_summary(const Comm& comm, const Decomposition& d, bool overlap,
                                         const std::string& exchange,
                                         const output::LoopTimes& mine) {
  static_assert(std::is_trivially_copyable_v<output::LoopTimes>);
  output::ParallelSummary p;
  p.ranks = comm.size();
  p.rank_grid = d.ranks;
  p.overlap = overlap;
  p.exchange = exchange;
  p.transport = exchange_transport(exchange);
  const std::vector<char> all = comm.allgather(&mine, sizeof mine);
  for (int r = 0; r < comm.size(); ++r) {
    output::LoopTimes t;
    std::memcpy(&t, all.data() + static_cast<std::size_t>(r) * sizeof t, sizeof t);
    if (r == 0) p.rank0 = t;
    p.max.loop = std::max(p.max.loop, t.loop);
    p.max.sweep = std::max(p.max.sweep, t.sweep);
    p.max.exchange = std::max(p.max.exchange, t.exchange);
    p.max.reductions = std::max(p.max.reductions, t.reductions);
  }
  return p;
}

output::ParallelSummary parallel_summary(const Comm& comm, const Decomposition& d, bool overlap,
                                         const std::string& exchange, const output::LoopTimes& mine,
                                         const std::vector<output::LevelSeconds>& mine_levels,
                                         std::vector<std::array<std::int64_t, 3>> level_points) {
  static_assert(std::is_trivially_copyable_v<output::LevelSeconds>);
  output::ParallelSummary p = parallel_summary(comm, d, overlap, exchange, mine);
  const std::size_t bytes = mine_levels.size() * sizeof(output::LevelSeconds);
  const std::vector<char> all = comm.allgather(mine_levels.data(), bytes);
  p.level_points = std::move(level_points);
  p.levels_rank0 = mine_levels;
  p.levels_max.assign(mine_levels.size(), output::LevelSeconds{});
  for (int r = 0; r < comm.size(); ++r)
    for (std::size_t l = 0; l < mine_levels.size(); ++l) {
      output::LevelSeconds t;
      std::memcpy(&t, all.data() + static_cast<std::size_t>(r) * bytes + l * sizeof t, sizeof t);
      if (r == 0) p.levels_rank0[l] = t;
      output::LevelSeconds& m = p.levels_max[l];
      m.sweep = std::max(m.sweep, t.sweep);
      m.transfer = std::max(m.transfer, t.transfer);
      m.exchange = std::max(m.exchange, t.exchange);
      m.bottom = std::max(m.bottom, t.bottom);
    }
  return p;
}

}  // namespace fdsolve::parallel
