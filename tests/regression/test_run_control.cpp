// Run control through the CLI: a float multigrid solve with a tolerance below its rounding
// floor converges at the floor (exit 0) and says so, a reachable float tolerance still
// converges; multigrid's
// default max_iterations and check's tolerance warning; heat started at rest completes (its
// first norm 0 does not make every later one a divergence); the wall-time limit stops Jacobi,
// multigrid and heat runs (explicit and implicit) with a checkpoint (exit 3), and `run --resume OUTDIR`
// continues them from the case stored in the checkpoint, --set overrides included,
// bit-identical to an uninterrupted run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "cli_runner.hpp"
#include "history_csv.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

const std::string kCpu = " --backend cpu";

std::vector<fdsolve::output::HistoryRow> history(const fs::path& dir) {
  return fdsolve::output::parse_history_csv(read_text(dir / "history.csv"));
}

bool summary_has(const fs::path& dir, const std::string& text) {
  return read_text(dir / "summary.json").find(text) != std::string::npos;
}

/// The plate by multigrid in float on a 129x129 grid (h = 1/128), u in [0, 1].
const std::string kFloatPlate = "run " + example("plate.yaml") + kCpu +
                                " --set solve.method=multigrid --set grid.points=[129,129]"
                                " --set precision=float --set output.every=0";

}  // namespace

TEST_CASE("regression: float multigrid below its rounding floor converges there and says so") {
  TempDir quiet, loud;
  const auto q = run_fdsolve(kFloatPlate + " --set solve.tolerance=1e-12 --quiet --output " +
                             quiet.path.string());
  INFO(q.output);
  REQUIRE(q.exit_code == 0);
  CHECK(summary_has(quiet.path, "\"status\": \"converged\""));
  CHECK(summary_has(quiet.path, "\"at_rounding_floor\": true"));
  CHECK(summary_has(quiet.path, "\"rounding_floor\": {\"norm\": \"l2\""));
  // The stall, found independently from the history: the first cycle whose residual is above
  // 0.9 x the previous one's. The run must end within 20 cycles of it.
  const auto rows = history(quiet.path);
  REQUIRE(rows.size() > 2);
  std::int64_t stall = -1;
  for (std::size_t i = 2; i < rows.size() && stall < 0; ++i)
    if (rows[i].norm_l2 > 0.9 * rows[i - 1].norm_l2) stall = rows[i].iteration;
  REQUIRE(stall > 0);
  CHECK(rows.back().iteration <= stall + 20);
  CHECK(rows.back().iteration < 100);  // long before the default max_iterations
  // It stopped at float's rounding level: eps x sum|A| x max|u| (5 points, h = 1/128:
  // sum|A| = 2 x 4 / h^2; max|u| = 1, the hot edge), within a factor 10 in the max norm.
  const double floor = std::numeric_limits<float>::epsilon() * 8.0 * 128 * 128 * 1.0;
  CHECK(rows.back().norm_linf < 10 * floor);
  CHECK(rows.back().norm_linf > floor / 10);
  CHECK(rows.back().norm_l2 > 1e-12 * rows.front().norm_l2);
  CHECK(last_snapshot(quiet.path).info.iteration == rows.back().iteration);

  const auto l = run_fdsolve(kFloatPlate + " --set solve.tolerance=1e-12 --output " +
                             loud.path.string());
  INFO(l.output);
  REQUIRE(l.exit_code == 0);
  // Said before the solve, and once where it stops.
  CHECK(l.output.find("lies below the estimated rounding floor of this case in float") !=
        std::string::npos);
  CHECK(l.output.find("converged at the rounding floor at iteration") != std::string::npos);
  CHECK(l.output.find("eps x |A| x |u|") != std::string::npos);
  CHECK(l.output.find("Jacobi") == std::string::npos);
  CHECK(l.output.find("more iterations") == std::string::npos);
}

TEST_CASE("regression: a float tolerance multigrid can reach still converges") {
  TempDir out;
  const auto r = run_fdsolve(kFloatPlate + " --set solve.tolerance=1e-5 --quiet --output " +
                             out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(summary_has(out.path, "\"status\": \"converged\""));
  const auto rows = history(out.path);
  REQUIRE(rows.size() > 1);
  CHECK(rows.back().norm_l2 <= 1e-5 * rows.front().norm_l2);
}

TEST_CASE("regression: check prints multigrid's default max_iterations and warns of tolerances "
          "below the precision") {
  const auto mg = run_fdsolve("check " + example("poisson_multigrid.yaml"));
  REQUIRE(mg.exit_code == 0);
  CHECK(mg.output.find("max_iterations: 100\n") != std::string::npos);
  CHECK(mg.output.find("# max_iterations: 100 cycles (the multigrid default") !=
        std::string::npos);
  const auto set = run_fdsolve("check " + example("poisson_multigrid.yaml") +
                               " --set solve.max_iterations=7");
  CHECK(set.output.find("max_iterations: 7\n") != std::string::npos);
  const auto jacobi = run_fdsolve("check " + example("plate.yaml"));
  CHECK(jacobi.output.find("max_iterations: 1000000\n") != std::string::npos);

  const std::string mg_case = "check " + example("poisson_multigrid.yaml");
  const auto low = run_fdsolve(mg_case + " --set precision=float --set solve.tolerance=1e-12");
  REQUIRE(low.exit_code == 0);
  CHECK(low.output.find("# warning: solve.tolerance 1e-12 lies below the estimated rounding "
                        "floor of this case in float precision") != std::string::npos);
  const auto fine = run_fdsolve(mg_case + " --set precision=double --set solve.tolerance=1e-8");
  REQUIRE(fine.exit_code == 0);
  CHECK(fine.output.find("warning: solve.tolerance") == std::string::npos);
  for (const auto& entry : fs::directory_iterator(fs::path(FDSOLVE_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".yaml") continue;
    const auto shipped = run_fdsolve("check " + entry.path().string());
    INFO(entry.path());
    CHECK(shipped.exit_code == 0);
    CHECK(shipped.output.find("warning: solve.tolerance") == std::string::npos);
  }
}

namespace {

/// Runs `base` uninterrupted into `full`, then with a time limit of a fifth of that run's wall
/// time into `parts`, then `run --resume parts` with `resume_sets`; the final states must be
/// bit-identical.
void check_time_limit_and_resume(const std::string& base, const std::string& resume_sets,
                                 const TempDir& full, const TempDir& parts) {
  const auto a = run_fdsolve(base + " --output " + full.path.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  const double limit = std::max(0.05, summary_number(full.path, "wall_seconds") / 5);
  const auto b = run_fdsolve(base + " --log-level warn --time-limit " + std::to_string(limit) +
                             " --output " + parts.path.string());
  INFO(b.output);
  REQUIRE(b.exit_code == 3);
  REQUIRE(fs::exists(parts.path / "checkpoint.h5"));
  CHECK(summary_has(parts.path, "\"status\": \"time_limit\""));
  CHECK(summary_has(parts.path, "\"stop_reason\": \"time limit"));
  CHECK(b.output.find("time limit of") != std::string::npos);
  CHECK(b.output.find("continue with `fdsolve run --resume " + parts.path.string() + "`") !=
        std::string::npos);
  CHECK(last_snapshot(parts.path).info.iteration < last_snapshot(full.path).info.iteration);
  // No case file: the case and its --set overrides come from the checkpoint.
  const auto c = run_fdsolve("run --resume " + parts.path.string() + resume_sets);
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  check_bit_identical(last_snapshot(full.path), last_snapshot(parts.path));
}

}  // namespace

TEST_CASE("regression: heat started at rest and driven by data that grows from 0 completes") {
  // u = 0 everywhere and x_min = sin(2 pi t), 0 at t = 0: the first step's update is 0, the
  // divergence rule's first norm too. By the maximum principle u stays within the data's
  // range [-1, 1], so every later update is bounded and the run must complete (exit 0), for
  // the explicit and the implicit steps alike.
  for (const std::string scheme : {"explicit", "crank-nicolson"}) {
    CAPTURE(scheme);
    TempDir out;
    const CliResult r = run_fdsolve(
        "run " + example("heat_plate.yaml") + kCpu +
        " --set grid.points=[33,17] --set time.end=0.3 --set output.every=0"
        " --set checkpoint.every=0 --set time.scheme=" + scheme +
        (scheme == "explicit" ? std::string() : std::string(" --set time.dt=0.01")) +
        " --set 'boundary.x_min={type: dirichlet, value: \"sin(2*pi*t)\"}'"
        " --output " + out.path.string() + " 2>&1");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    const fdsolve::output::SnapshotData last = last_snapshot(out.path);
    const std::vector<double>& u = field(last, "u");
    double largest = 0;
    for (double v : u) largest = std::max(largest, std::fabs(v));
    CHECK(largest > 0.1);  // the data reached the field
    CHECK(largest <= 1.0);
  }
}

TEST_CASE("regression: a Jacobi run stopped by --time-limit resumes from OUTDIR bit-identically") {
  TempDir full, parts;
  // grid.points differs from the file's: a resume that lost the override would be refused
  // (another case) or differ.
  check_time_limit_and_resume("run " + example("plate.yaml") + kCpu +
                                  " --set grid.points=[97,97] --set solve.tolerance=1e-12"
                                  " --set output.every=0",
                              " --set solve.max_iterations=1000000", full, parts);
}

TEST_CASE("regression: a heat run stopped by --time-limit resumes from OUTDIR bit-identically") {
  TempDir full, parts;
  check_time_limit_and_resume(
      "run " + example("heat_plate.yaml") + kCpu +
          " --set grid.points=[33,17] --set time.end=10 --set output.every=0"
          " --set 'boundary.x_min={type: dirichlet, value: \"1 + 0.1*sin(t)\"}'",
      "", full, parts);
}

TEST_CASE("regression: an implicit heat run stopped by --time-limit resumes bit-identically") {
  TempDir full, parts;
  // Crank-Nicolson steps by multigrid; the resume may change time.end back to the same value.
  check_time_limit_and_resume("run " + example("heat_plate_implicit.yaml") + kCpu +
                                  " --set grid.points=[33,17] --set time.end=2"
                                  " --set output.every=0",
                              " --set time.end=2", full, parts);
}

TEST_CASE("regression: a multigrid solve stopped by --time-limit resumes bit-identically") {
  TempDir full, parts;
  // The file's tolerance is 1e-8: a resume that lost the override would stop cycles early.
  check_time_limit_and_resume("run " + example("poisson_multigrid.yaml") + kCpu +
                                  " --set solve.tolerance=1e-10",
                              "", full, parts);
}

TEST_CASE("regression: --resume OUTDIR refuses --set keys that change the solution") {
  TempDir out;
  const std::string base = "run " + example("plate.yaml") + kCpu +
                           " --set grid.points=[33,33] --set solve.max_iterations=20 --set "
                           "checkpoint.every=10 --output " + out.path.string();
  REQUIRE(run_fdsolve(base).exit_code == 3);
  const auto points = run_fdsolve("run --resume " + out.path.string() +
                                  " --set grid.points=[65,65]");
  CHECK(points.exit_code == 2);
  CHECK(points.output.find("--set grid.points: --resume") != std::string::npos);
  const auto both = run_fdsolve("run " + example("plate.yaml") + " --resume " + out.path.string());
  CHECK(both.exit_code == 2);
  const auto output = run_fdsolve("run --resume " + out.path.string() + " --output x");
  CHECK(output.exit_code == 2);
  TempDir empty;
  const auto none = run_fdsolve("run --resume " + empty.path.string());
  CHECK(none.exit_code == 2);
  fs::create_directories(empty.path);
  const auto missing = run_fdsolve("run --resume " + empty.path.string());
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("no checkpoint") != std::string::npos);
  // A stopping key may change: 10 more iterations from the checkpoint at 20.
  const auto more = run_fdsolve("run --resume " + out.path.string() +
                                " --set solve.max_iterations=30");
  INFO(more.output);
  CHECK(more.exit_code == 3);
  CHECK(last_snapshot(out.path).info.iteration == 30);
}
