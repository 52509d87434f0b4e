// `fdsolve bench --multigrid`: one V-cycle and one full solve to the discretization error,
// each in work units (its time over one fine-grid Jacobi sweep timed in the same run), on
// manufactured Poisson problems: 2D 5-point and 3D 7- and 27-point.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench/bench.hpp"

namespace fdsolve::multigrid {

struct MultigridBenchRow {
  std::string backend, what;  // what: "v-cycle" | "fmg-solve"
  int dims = 2, stencil = 5;
  std::string precision;
  std::int64_t size = 0;
  int cycles = 0;            // V-cycles after the FMG cycle (fmg-solve), or 1
  double seconds = 0;        // per cycle (v-cycle) or per solve
  double sweep_seconds = 0;  // one fine sweep, timed in the same run
  double work_units = 0;     // seconds / sweep_seconds
  double max_error = 0;      // fmg-solve: max |u - exact|
  double converged_error = 0;  // the discrete solution's max |u - exact| (many cycles)
  double factor = 0;         // residual factor of the last cycle
};

/// Runs the rows for every backend, dimension and precision `options` selects.
std::vector<MultigridBenchRow> run_multigrid_bench(const BenchOptions& options, std::ostream& out);

}  // namespace fdsolve::multigrid
