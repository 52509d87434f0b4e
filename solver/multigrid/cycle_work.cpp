// Work per cycle (see cycle_work.hpp).
#include "cycle_work.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "case_reader.hpp"
#include "level_operator.hpp"

namespace fdsolve::multigrid {

bool cg_bottom_applies(const std::vector<LevelGeometry>& levels) {
  return levels.size() > 1 && levels.back().box.cells() <= kMaxCgCells;
}

int cg_bottom_iterations(index_t unknowns) {
  // CG ends in at most as many steps as unknowns in exact arithmetic; twice that, and a cap,
  // leave room for rounding.
  return static_cast<int>(std::min<index_t>(2 * unknowns + 10, 2000));
}

CycleWork cycle_work(const MultigridSpec& m, const std::vector<LevelGeometry>& levels,
                     double alpha, double beta) {
  CycleWork w;
  w.cg_bottom = cg_bottom_applies(levels);
  const std::size_t last = levels.size() - 1;
  if (!w.cg_bottom) {
    const BottomSolve b = bottom_solve(levels[last], level_operator(levels[last], alpha, beta),
                                       alpha, beta, 0.01);
    w.bottom_sweeps = b.sweeps;
    w.bottom_radius = b.spectral_radius;
  }
  const double fine = std::max<double>(1.0, static_cast<double>(levels[0].box.cells()));
  double visits = 1;  // visits of level l per cycle: W-cycles visit each level below twice
  for (std::size_t l = 0; l < levels.size(); ++l) {
    if (l >= 2 && m.cycle == CycleKind::W) visits *= 2;
    if (l == last && l >= 2 && m.cycle == CycleKind::W) visits /= 2;  // once from above
    const double cells = static_cast<double>(levels[l].box.cells());
    double sweeps;
    if (l != last)  // pre + post smoothing, the residual, about one sweep of transfers
      sweeps = m.pre_smooth + m.post_smooth + 2.0;
    else if (w.cg_bottom)
      sweeps = 4.0 * cg_bottom_iterations(levels[l].box.cells());
    else
      sweeps = w.bottom_sweeps;
    const double units = visits * sweeps * cells / fine;
    w.by_level.push_back(units);
    w.total += units;
  }
  return w;
}

std::string cycle_work_warning(const Case& c, const std::vector<LevelGeometry>& levels) {
  const MultigridSpec& m = c.solve.multigrid;
  const CycleWork w = cycle_work(m, levels);
  if (w.total <= kWarnCycleWork) return "";
  const std::size_t worst = static_cast<std::size_t>(
      std::max_element(w.by_level.begin(), w.by_level.end()) - w.by_level.begin());
  const LevelGeometry& g = levels[worst];
  const std::string what = fmt::format(
      "a multigrid {}({},{}) cycle on this grid costs about {:.0f} fine sweeps ({} levels; "
      "level {}, {} nodes, takes {:.0f} of them{})",
      m.cycle == CycleKind::V ? "V" : "W", m.pre_smooth, m.post_smooth, w.total, levels.size(),
      worst, fmt::join(g.n.begin(), g.n.begin() + g.dims, "x"), w.by_level[worst],
      worst + 1 == levels.size() ? ", the bottom solve" : "");
  const std::string fix =
      m.cycle == CycleKind::W
          ? "use solve.multigrid.cycle: v (a W-cycle visits the coarse levels 2^level times, "
            "which costs most where only some axes coarsen)"
          : "use fewer solve.multigrid.pre_smooth / post_smooth sweeps";
  if (w.total > kMaxCycleWork)
    throw InputError(c.where("solve.multigrid") + "solve.multigrid: " + what + ", more than " +
                     fmt::format("{:.0f}", kMaxCycleWork) + ": " + fix);
  return what + ": " + fix;
}

}  // namespace fdsolve::multigrid
