// A team of one worker for the team code the CPU shares with CUDA (bottom_cg.hpp,
// bottom_levels_team.hpp): the host runs it on one thread, where the grids are small enough
// that threads would cost more than they save.
#pragma once

namespace fdsolve::cpu {

struct SerialTeam {
  int rank() const { return 0; }
  int size() const { return 1; }
  double sum(double v) const { return v; }
  void sync() const {}
  /// The bottom solve's team inside the bottom levels' call: the same worker.
  SerialTeam cg() const { return *this; }
};

}  // namespace fdsolve::cpu
