// The multigrid loops' time split over ranks: the cycles time every operation per level
// (StencilHierarchy::time_levels), the loop adds the reductions of the residual norms, and the summary
// carries both as Jacobi's carries its sweep / exchange / reductions split (summary.json's
// `parallel` object, with a `levels` array).
#pragma once

#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "hierarchy.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/reduce.hpp"
#include "run_output.hpp"

namespace fdsolve::multigrid {

/// The parallel summary of a multigrid loop of `session` seconds over the ranks of `comm`
/// (split `d`), from the cycles' seconds per level (`levels`, empty when the iteration does not
/// time them) and `reductions` (the norms' collectives). Logs the per-level split on rank 0.
inline output::ParallelSummary level_split_summary(
    const parallel::Comm& comm, const parallel::Decomposition& d, bool host_memory,
    double session, double reductions, const std::vector<output::LevelSeconds>& levels,
    const std::vector<LevelGeometry>& geometry) {
  output::LoopTimes mine{session, 0, 0, reductions};
  std::vector<std::array<std::int64_t, 3>> points;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    mine.sweep += levels[l].sweep + levels[l].transfer + levels[l].bottom;
    mine.exchange += levels[l].exchange;
    const auto& n = geometry[l].n;
    points.push_back({static_cast<std::int64_t>(n[0]), static_cast<std::int64_t>(n[1]),
                      static_cast<std::int64_t>(n[2])});
  }
  output::ParallelSummary p = parallel::parallel_summary(
      comm, d, false, exchange_path(host_memory), mine, levels, points);
  if (comm.root()) {
    if (levels.empty()) {
      spdlog::info("loop over {} ranks: {:.3f} s, of which reductions {:.3f} s (rank 0); per-level "
                   "times not taken: the cycles ran as recorded graphs (FDSOLVE_RECORD_CYCLES=0 "
                   "launches them one by one, timed)",
                   p.ranks, mine.loop, mine.reductions);
    } else {
      // The rest: the host's work between cycles and, on a GPU, the stream idle while the host
      // enqueues (launches, MPI calls): what the levels' queue clocks do not see.
      const double rest = mine.loop - mine.sweep - mine.exchange - mine.reductions;
      spdlog::info("loop over {} ranks: {:.3f} s, of which sweeps and transfers {:.3f} s, halo "
                   "exchanges {:.3f} s, reductions {:.3f} s, the rest {:.3f} s (rank 0)",
                   p.ranks, mine.loop, mine.sweep, mine.exchange, mine.reductions, rest);
    }
    for (std::size_t l = 0; l < p.levels_rank0.size(); ++l) {
      const output::LevelSeconds& a = p.levels_rank0[l];
      const output::LevelSeconds& m = p.levels_max[l];
      spdlog::info("  level {} ({} x {}{}): sweep {:.4f} / {:.4f} s, transfer {:.4f} / {:.4f}, "
                   "exchange {:.4f} / {:.4f}, bottom {:.4f} / {:.4f} (rank 0 / largest)",
                   l, points[l][0], points[l][1],
                   geometry[l].dims == 3 ? fmt::format(" x {}", points[l][2]) : std::string(),
                   a.sweep, m.sweep, a.transfer, m.transfer, a.exchange, m.exchange, a.bottom,
                   m.bottom);
    }
  }
  return p;
}

}  // namespace fdsolve::multigrid
