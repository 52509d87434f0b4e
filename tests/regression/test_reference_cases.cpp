// Every case of tests/regression/<case>/ run through the CLI and compared with its reference by
// `fdsolve compare` at the tolerance of its precision. Compiled twice: for the CPU (label
// regression: reference, same-run bit identity, stopping margin, float rounding headroom) and
// for CUDA (label gpu;regression: reference, CUDA vs CPU, CUDA twice). A missing or different
// reference fails; only tools/regenerate-reference.sh writes one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "reference_cases.hpp"

#ifndef FDSOLVE_TEST_CUDA
#define FDSOLVE_TEST_CUDA 0
#endif

using namespace fdsolve;
using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

/// Runs `c` on `backend` into `out`; false (with the reason reported) when it did not end with
/// exit 0 and a final snapshot.
bool run_ok(const RegressionCase& c, const std::string& backend, const fs::path& out,
            CaseRun& run) {
  run = run_case(c, backend, out);
  INFO("fdsolve run (", backend, "):\n", run.cli.output);
  CHECK(run.cli.exit_code == 0);
  CHECK(!run.snapshot.empty());
  return run.cli.exit_code == 0 && !run.snapshot.empty();
}

/// The snapshot at `snapshot` equals the case's reference within its tolerance.
void check_against_reference(const RegressionCase& c, const fs::path& snapshot) {
  INFO("no reference: create it on purpose with tools/regenerate-reference.sh ", c.name);
  REQUIRE(fs::exists(c.reference()));
  const CliResult compared = compare_files(snapshot, c.reference(), tolerance_of(c));
  INFO("fdsolve compare ", snapshot.string(), " ", c.reference().string(), ":\n", compared.output,
       "a deliberate change: tools/regenerate-reference.sh ", c.name);
  CHECK(compared.exit_code == 0);
}

/// Every field of the two snapshots has the same bytes, and the iteration and time agree.
void check_bit_identical(const fs::path& a, const fs::path& b) {
  const auto sa = output::read_snapshot(a.string());
  const auto sb = output::read_snapshot(b.string());
  CHECK(sa.info.iteration == sb.info.iteration);
  CHECK(sa.info.time == sb.info.time);
  REQUIRE(sa.names == sb.names);
  for (std::size_t f = 0; f < sa.fields.size(); ++f) {
    REQUIRE(sa.fields[f].size() == sb.fields[f].size());
    CHECK_MESSAGE(std::memcmp(sa.fields[f].data(), sb.fields[f].data(),
                              sa.fields[f].size() * sizeof(double)) == 0,
                  "field ", sa.names[f], " differs between two runs");
  }
}

}  // namespace

#if !FDSOLVE_TEST_CUDA

namespace {

/// The chosen norm of one history row.
double chosen_norm(const RegressionCase& c, const HistoryRow& row) {
  return c.config.solve.norm == NormKind::L2 ? row.norm_l2 : row.norm_linf;
}

/// A steady case stops at a check where the norm is clearly below the threshold, one check
/// after it was clearly above: another backend, whose norms differ by rounding only, stops at
/// the same iteration (compare requires equal iterations).
void check_stop_margin(const RegressionCase& c, const fs::path& out) {
  if (c.config.problem.equation == Equation::Heat) return;  // fixed steps to time.end
  const auto rows = read_history(out);
  REQUIRE(rows.size() >= 3);
  // Jacobi's reference norm is that of iteration 1; multigrid's the initial residual (row 0).
  REQUIRE(rows.front().iteration <= 1);
  const double threshold = std::max(c.config.solve.absolute_tolerance,
                                    c.config.solve.tolerance * chosen_norm(c, rows.front()));
  const double last = chosen_norm(c, rows.back());
  const double previous = chosen_norm(c, rows[rows.size() - 2]);
  INFO("threshold ", threshold, ", norm at the last two checks ", previous, ", ", last,
       ": move solve.tolerance so that it lies between them by a factor 1.25 or more");
  CHECK(last * 1.25 <= threshold);
  CHECK(previous >= 1.25 * threshold);
}

}  // namespace

TEST_CASE("regression: each case on the CPU matches its reference; a second run is identical") {
  const auto cases = regression_cases();
  REQUIRE(!cases.empty());
  for (const RegressionCase& c : cases) {
    INFO("case ", c.name);
    TempDir first, second;
    CaseRun a, b;
    if (!run_ok(c, "cpu", first.path, a)) continue;
    check_against_reference(c, a.snapshot);
    check_stop_margin(c, first.path);
    // Parity with itself: the same case twice on the CPU, bit for bit.
    if (!run_ok(c, "cpu", second.path, b)) continue;
    check_bit_identical(a.snapshot, b.snapshot);
    CHECK(compare_files(a.snapshot, b.snapshot, {0, 0}).exit_code == 0);
  }
}

TEST_CASE("regression: float cases leave the rounding of another backend inside the tolerance") {
  // The same iterations in double: the float answer's whole rounding error, which bounds how
  // far another float backend (other operation order, FMA) can land from it, is at most a
  // quarter of the tolerance everywhere; and the norm at the last check moves by under 5%,
  // well inside the stopping margin.
  for (const RegressionCase& c : regression_cases()) {
    if (!c.is_float()) continue;
    INFO("case ", c.name);
    TempDir single_dir, double_dir;
    CaseRun single_run;
    if (!run_ok(c, "cpu", single_dir.path, single_run)) continue;
    const auto single = output::read_snapshot(single_run.snapshot.string());
    std::string same_work = "--set precision=double";
    if (c.config.problem.equation != Equation::Heat) {
      same_work +=
          " --set solve.tolerance=0 --set solve.absolute_tolerance=0"
          " --set solve.max_iterations=" +
          std::to_string(single.info.iteration);
    }
    const CaseRun double_run = run_case(c, "cpu", double_dir.path, same_work);
    INFO(double_run.cli.output);
    REQUIRE(!double_run.snapshot.empty());
    const auto wide = output::read_snapshot(double_run.snapshot.string());
    REQUIRE(wide.info.iteration == single.info.iteration);
    const Tolerance t = tolerance_of(c);
    const auto& u = single.fields.at(0);
    const auto& w = wide.fields.at(0);
    double worst = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
      worst = std::max(worst, std::fabs(u[i] - w[i]) / (t.atol + t.rtol * std::fabs(w[i])));
    MESSAGE(c.name, ": float vs double, as a fraction of the tolerance: ", worst);
    CHECK(worst <= 0.25);
    const double ns = chosen_norm(c, read_history(single_dir.path).back());
    const double nw = chosen_norm(c, read_history(double_dir.path).back());
    CHECK(std::fabs(ns - nw) <= 0.05 * nw);
  }
}

#else  // FDSOLVE_TEST_CUDA

TEST_CASE(
    "gpu: each case on CUDA matches the CPU reference and a CPU run; CUDA twice is identical") {
  const auto cases = regression_cases();
  REQUIRE(!cases.empty());
  for (const RegressionCase& c : cases) {
    INFO("case ", c.name);
    TempDir cuda_dir, again_dir, cpu_dir;
    CaseRun cuda, again, cpu;
    if (!run_ok(c, "cuda", cuda_dir.path, cuda)) continue;
    check_against_reference(c, cuda.snapshot);
    // Parity: CUDA against a CPU run of this build, at the precision's tolerance (compare
    // also requires the same iteration and time).
    if (run_ok(c, "cpu", cpu_dir.path, cpu)) {
      const CliResult compared = compare_files(cuda.snapshot, cpu.snapshot, tolerance_of(c));
      INFO("CUDA vs CPU:\n", compared.output);
      CHECK(compared.exit_code == 0);
    }
    if (run_ok(c, "cuda", again_dir.path, again))
      check_bit_identical(cuda.snapshot, again.snapshot);
  }
}

#endif
