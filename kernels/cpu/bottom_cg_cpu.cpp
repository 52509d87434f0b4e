// Multigrid's bottom solve on the host: the CG iteration of bottom_cg.hpp with a team of one
// (the coarsest grid has a few dozen nodes: threads would cost more than they save).
#include "bottom_cg.hpp"
#include "serial_team.hpp"
#include "stencil_cpu.hpp"

namespace fdsolve::cpu {

template <typename T>
int bottom_solve(const BottomSolveArgs<T>& args) {
  if (args.box.empty()) return 0;
  SerialTeam team;
  return bottom_cg(bottom_plain(args), team);
}

template int bottom_solve<float>(const BottomSolveArgs<float>&);
template int bottom_solve<double>(const BottomSolveArgs<double>&);

}  // namespace fdsolve::cpu
