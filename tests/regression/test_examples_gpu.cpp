// Each example on CUDA against the same example on the CPU, both run for the same fixed number
// of iterations: final fields equal within a tolerance set by the precision (the kernels differ
// only in the order of floating-point operations).
#include <doctest/doctest.h>

#include <cmath>

#include "cli_runner.hpp"

using namespace fdsolve::testing;

namespace {

/// `fixed`: the options that stop both runs at the same point (heat runs stop at time.end).
void compare_backends(const std::string& name, double tolerance,
                      const std::string& fixed =
                          " --set solve.tolerance=0 --set solve.max_iterations=1500",
                      int exit_code = 3) {
  TempDir cpu, gpu;
  const auto rc =
      run_fdsolve("run " + example(name) + fixed + " --backend cpu --output " + cpu.path.string());
  const auto rg =
      run_fdsolve("run " + example(name) + fixed + " --backend cuda --output " + gpu.path.string());
  INFO(name, "\n", rc.output, rg.output);
  REQUIRE(rc.exit_code == exit_code);
  REQUIRE(rg.exit_code == exit_code);
  const auto a = last_snapshot(cpu.path);
  const auto b = last_snapshot(gpu.path);
  CHECK(a.info.iteration == b.info.iteration);
  const auto& ua = field(a, "u");
  const auto& ub = field(b, "u");
  REQUIRE(ua.size() == ub.size());
  double diff = 0;
  for (std::size_t i = 0; i < ua.size(); ++i) diff = std::max(diff, std::fabs(ua[i] - ub[i]));
  CHECK(diff < tolerance);
}

}  // namespace

TEST_CASE("gpu: every example on CUDA equals the CPU run") {
  compare_backends("plate.yaml", 1e-10);
  compare_backends("poisson_box.yaml", 1e-10);
  compare_backends("study_5pt.yaml", 2e-5);
  compare_backends("study_27pt.yaml", 2e-5);
  // Multigrid (method auto): 12 cycles, short of the rounding floor where the cycles stall at a
  // count that depends on each backend's rounding.
  compare_backends("periodic_channel.yaml", 1e-10,
                   " --set solve.tolerance=0 --set solve.max_iterations=12");
  compare_backends("heat_plate.yaml", 1e-12, "", 0);
  // Multigrid per step: the backends' sums differ in rounding, each step to 1e-6 of its start.
  compare_backends("heat_plate_implicit.yaml", 1e-8, "", 0);
}
