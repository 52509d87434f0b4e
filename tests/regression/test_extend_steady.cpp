// Steady runs that can be extended: a run converged to tolerance 1e-4 keeps its last state as
// a checkpoint, and `run --resume OUTDIR --set solve.tolerance=1e-8` continues the solve. The
// expectation is one run to 1e-8. Jacobi sweeps and multigrid cycles depend on u alone, so
// the continued field is that run's bit for bit (multigrid's history differs only in the
// diagnostics of the row where the first run stopped, which a converged run adds to its last
// row); conjugate gradients restart their search direction, so there the field meets the
// tighter tolerance and agrees with the direct run to within 1e-7 (measured 1.7e-9), where the
// first run's field is 6.8e-5 away.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_runner.hpp"
#include "extend_support.hpp"
#include "history_csv.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

/// Runs `base` to tolerance 1e-4 into `parts` (its last snapshot returned), continues it with
/// `--resume parts --set solve.tolerance=1e-8`, and runs `base` to 1e-8 into `whole`.
fdsolve::output::SnapshotData tighten(const std::string& base, const TempDir& parts,
                                      const TempDir& whole) {
  const auto a = run_fdsolve(base + " --set solve.tolerance=1e-4 --output " + parts.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const auto first = last_snapshot(parts.path);
  // The converged run's checkpoint is its last state.
  CHECK(read_checkpoint_file(parts.path).info.iteration == first.info.iteration);
  const auto b = run_fdsolve("run --resume " + parts.path.string() + " --set solve.tolerance=1e-8");
  INFO(b.output);
  REQUIRE(b.exit_code == 0);
  CHECK(last_snapshot(parts.path).info.iteration > first.info.iteration);
  const auto c = run_fdsolve(base + " --set solve.tolerance=1e-8 --output " + whole.path.string());
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  return first;
}

double max_difference(const fdsolve::output::SnapshotData& a,
                      const fdsolve::output::SnapshotData& b) {
  const auto& u = field(a, "u");
  const auto& v = field(b, "u");
  REQUIRE(u.size() == v.size());
  double worst = 0;
  for (std::size_t i = 0; i < u.size(); ++i) worst = std::max(worst, std::fabs(u[i] - v[i]));
  return worst;
}

const std::string kPlate = "run " + example("plate.yaml") + " --backend cpu --set output.every=0"
                           " --set checkpoint.every=1000000";  // the end checkpoint only

}  // namespace

TEST_CASE("regression: a converged Jacobi run resumed with a smaller tolerance is the run to it") {
  TempDir parts, whole;
  const auto first = tighten(kPlate + " --set grid.points=[49,41]", parts, whole);
  check_same_output(parts.path, whole.path, first.info.iteration);
}

TEST_CASE(
    "regression: a converged multigrid solve resumed with a smaller tolerance is the run "
    "to it") {
  TempDir parts, whole;
  const auto first =
      tighten(kPlate + " --set grid.points=[65,65] --set solve.method=multigrid", parts, whole);
  // iteration, time and both norms of every cycle; the fields bit for bit.
  check_same_output(parts.path, whole.path, first.info.iteration, 4);
}

TEST_CASE("regression: conjugate gradients resumed with a smaller tolerance meet it") {
  TempDir parts, whole;
  // A varying coefficient: CG preconditioned by multigrid cycles (solve.krylov: auto).
  const auto first = tighten(kPlate +
                                 " --set grid.points=[65,65] --set solve.method=multigrid"
                                 " --set problem.coefficient=1+0.5*x",
                             parts, whole);
  const auto rows = fdsolve::output::parse_history_csv(read_text(parts.path / "history.csv"));
  REQUIRE(rows.size() > 2);
  CHECK(rows.front().iteration == 0);  // the initial residual the tolerance is relative to
  CHECK(rows.back().norm_l2 <= 1e-8 * rows.front().norm_l2);
  const auto continued = last_snapshot(parts.path), direct = last_snapshot(whole.path);
  CHECK(max_difference(continued, direct) < 1e-7);
  CHECK(max_difference(first, direct) > 1e-6);  // the continuation did the work
}
