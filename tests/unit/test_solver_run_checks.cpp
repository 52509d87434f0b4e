// What the loop concludes at a check, on hand-made statistics: the history row with and
// without diagnostics, when a check counts as diverged and how the divergence is described,
// the stagnation warning (once, not for heat), and the progress line's rate.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "case_reader.hpp"
#include "loop/progress.hpp"
#include "loop/run_checks.hpp"

using namespace fdsolve;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

output::HistoryRow row(std::int64_t it, double l2) {
  output::HistoryRow r;
  r.iteration = it;
  r.norm_l2 = l2;
  r.norm_linf = 10 * l2;
  return r;
}

}  // namespace

TEST_CASE("run checks: the history row takes the range from the diagnostics when there are any") {
  SweepStats stats;
  stats.add(1.0, 3.0);  // d = 2
  stats.add(1.0, 1.0);  // d = 0
  Diagnostics diag;
  diag.min = -5;
  diag.max = 7;
  diag.mean = 0.5;
  diag.nonfinite = 0;
  diag.p50 = 0.25;
  diag.p90 = 2;
  diag.p99 = 2.5;
  diag.linf_at = {3, 4, 0};
  const auto with = history_row(10, 10, stats, &diag, 1.5);
  CHECK(with.diagnosed);
  CHECK(with.norm_l2 == std::sqrt(2.0));  // sqrt((4 + 0) / 2): the sweep's own norm
  CHECK(with.norm_linf == 2);
  CHECK(with.min == -5);
  CHECK(with.max == 7);
  CHECK(with.mean == 0.5);
  CHECK(with.p90 == 2);
  CHECK(with.linf_at == std::array<std::int64_t, 3>{3, 4, 0});
  const auto without = history_row(10, 10, stats, nullptr, 1.5);
  CHECK_FALSE(without.diagnosed);
  CHECK(without.min == 1);  // over the updated nodes: 3 and 1
  CHECK(without.max == 3);
  CHECK(without.mean == 2);
}

TEST_CASE("run checks: divergence is non-finite values, a non-finite norm or the factor") {
  SweepStats fine;
  fine.add(0, 1);
  Diagnostics clean;
  CHECK_FALSE(diverged(1.0, 100.0, fine, &clean));
  CHECK_FALSE(diverged(100.0, 100.0, fine, nullptr));  // at the limit is not above it
  CHECK(diverged(100.5, 100.0, fine, &clean));
  CHECK(diverged(kNaN, 100.0, fine, nullptr));
  Diagnostics bad;
  bad.nonfinite = 1;
  CHECK(diverged(1.0, 100.0, fine, &bad));  // found by the diagnostics though the norm is fine
  Diagnostics bad_update;
  bad_update.histogram[kHistNonfiniteBin] = 2;
  CHECK(diverged(1.0, 100.0, fine, &bad_update));
}

TEST_CASE("run checks: a divergence names its nodes with their coordinates") {
  output::GridMeta grid;
  grid.dims = 3;
  grid.points = {5, 6, 7};
  grid.origin = {1, -1, 0.5};
  grid.spacing = {0.5, 0.25, 2};
  Diagnostics diag;
  diag.nonfinite = 2;
  diag.nonfinite_at = {{{1, 2, 3}}, {{4, 0, 6}}};
  const auto d = locate_divergence(40, 40, kNaN, 1e6, diag, grid);
  CHECK(d.reason == "nonfinite");
  REQUIRE(d.nodes.size() == 2);
  CHECK(d.nodes[0].x == std::array<double, 3>{1.5, -0.5, 6.5});  // origin + i h, by hand
  CHECK(describe_divergence(d, 3, false) ==
        "diverged at iteration 40: 2 non-finite value(s) of u (NaN or Inf); at node (i, j, k) "
        "at (x, y, z): (1, 2, 3) at (1.5, -0.5, 6.5); (4, 0, 6) at (3, -1, 12.5)");

  Diagnostics finite;
  finite.linf = 3e7;
  finite.linf_at = {2, 5, 1};
  const auto n = locate_divergence(7, 0.125, 2e6, 1e6, finite, grid);
  CHECK(n.reason == "norm");
  CHECK(describe_divergence(n, 3, true) ==
        "diverged at step 7 (t = 0.125): the norm 2.000000e+06 exceeds divergence_factor x "
        "first norm = 1.000000e+06; every value of u is finite; the largest update |u' - u| = "
        "3.000000e+07 is at (i, j, k) = (2, 5, 1), (x, y, z) = (2, 0.25, 2.5)");
}

TEST_CASE("run checks: stagnation is warned once, only for Jacobi, only when switched on") {
  Case c = parse_case("grid: {points: [101, 101]}\nsolve: {stagnation_checks: 3}\n", "s.yaml");
  std::vector<output::HistoryRow> rows{row(1, 1.0), row(100, 0.5), row(200, 0.499),
                                       row(300, 0.498)};
  StagnationWatch watch(c);
  CHECK(watch.check(rows, 1e-6).empty());  // 0.498 is below 0.99 x 1.0
  rows.push_back(row(400, 0.4975));        // 0.4975 vs 0.5: a fall of 0.5%
  const std::string warning = watch.check(rows, 1e-6);
  CHECK(warning.find("over the last 3 checks (iterations 100 to 400") != std::string::npos);
  CHECK(warning.find("Jacobi converges slowly on large grids: on this 101x101 grid") !=
        std::string::npos);
  rows.push_back(row(500, 0.4974));
  CHECK(watch.check(rows, 1e-6).empty());  // once

  c.solve.norm = NormKind::Linf;  // the chosen norm decides: linf rows fell by the same share
  StagnationWatch linf(c);
  CHECK_FALSE(linf.check(rows, 1e-5).empty());

  c.solve.stagnation_checks = 0;
  StagnationWatch off(c);
  CHECK(off.check(rows, 1e-6).empty());
  Case heat = parse_case("grid: {points: [11, 11]}\nproblem: {equation: heat}\n", "h.yaml");
  StagnationWatch never(heat);
  CHECK(never.check(rows, 0).empty());
}

TEST_CASE("progress: the rate is decades of the norm per 1000 iterations") {
  CHECK(decades_per_1000(0, 1.0, 1000, 0.1) == doctest::Approx(-1.0));
  CHECK(decades_per_1000(100, 1e-3, 200, 1e-4) == doctest::Approx(-10.0));
  CHECK(decades_per_1000(100, 1e-3, 600, 1e-2) == doctest::Approx(2.0));
  CHECK(std::isnan(decades_per_1000(0, 0.0, 100, 1.0)));  // no previous check yet
  CHECK(std::isnan(decades_per_1000(100, 1.0, 100, 1.0)));
  CHECK(std::isnan(decades_per_1000(0, 1.0, 100, kNaN)));
  // The ETA's extrapolation: a tenfold fall per 1000 iterations, 2 more decades to go.
  CHECK(iterations_to_target(0, 1.0, 1000, 0.1, 0.001) == doctest::Approx(2000.0));
}
