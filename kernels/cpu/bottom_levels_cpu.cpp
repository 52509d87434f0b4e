// Multigrid's bottom levels in one call on the host: the team code of bottom_levels_team.hpp
// with a team of one. The levels are a few thousand nodes at most, where the level-by-level
// CPU operations run on one thread too (kParallelCells, team_size); the call lets the CPU
// tests hold the code CUDA runs to the level-by-level cycles.
#include "../bottom_levels_team.hpp"
#include "serial_team.hpp"
#include "stencil_cpu.hpp"

namespace fdsolve::cpu {
namespace {

template <int Points, typename T>
void run(const BottomLevelsPlain<T>& p) {
  SerialTeam team;
  fdsolve::bottom_levels<Points>(p, team);
}

}  // namespace

template <typename T>
void bottom_levels(const BottomLevelsArgs<T>& args) {
  const BottomLevelsPlain<T> p = bottom_levels_plain(args);
  if (args.levels.front().layout.dims == 2) return run<5>(p);
  switch (args.levels.front().residual.points) {
    case 7:
      return run<7>(p);
    case 19:
      return run<19>(p);
    default:
      return run<27>(p);
  }
}

template void bottom_levels<float>(const BottomLevelsArgs<float>&);
template void bottom_levels<double>(const BottomLevelsArgs<double>&);

}  // namespace fdsolve::cpu
