// Check diagnostics through the CLI: runs built to diverge stop at the first check after the
// blow-up, name exactly the nodes planted by hand, mark their last snapshot and keep the good
// checkpoint; history.csv and summary.json against a recomputation from the final snapshot;
// the stagnation warning. Compiled for the CPU (regression) and for CUDA (gpu_regression).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "cli_runner.hpp"
#include "history_csv.hpp"

#ifndef FDSOLVE_TEST_CUDA
#define FDSOLVE_TEST_CUDA 0
#endif
#if FDSOLVE_TEST_CUDA
#define DIAG_TEST(name) TEST_CASE("gpu: " name)
#else
#define DIAG_TEST(name) TEST_CASE("regression: " name)
#endif

using namespace fdsolve::testing;
namespace fs = std::filesystem;
using fdsolve::output::HistoryRow;

namespace {

const std::string kBackend = FDSOLVE_TEST_CUDA ? " --backend cuda" : " --backend cpu";

/// Writes `yaml` as <dir>/<name>.yaml and runs it with its output in <dir>/out.
CliResult run_case(const TempDir& dir, const std::string& name, const std::string& yaml,
                   const std::string& extra = "") {
  fs::create_directories(dir.path);
  const fs::path file = dir.path / (name + ".yaml");
  std::ofstream(file) << yaml;
  return run_fdsolve("run " + file.string() + kBackend + " --output " +
                     (dir.path / "out").string() + extra);
}

std::vector<HistoryRow> history(const TempDir& dir) {
  return fdsolve::output::parse_history_csv(read_text(dir.path / "out" / "history.csv"));
}

/// "(i, j) at (x, y)", as the divergence message lists a node.
std::string node_text(long i, long j, double x, double y) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%ld, %ld) at (%g, %g)", i, j, x, y);
  return buf;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

DIAG_TEST("a NaN planted in the initial state stops the run at the first check, naming its nodes") {
  // 33x33 nodes, spacing 0.25, origin (-1, 2): node (i, j) lies at (-1 + i/4, 2 + j/4). Inf is
  // planted on the 2x2 nodes i = 10, 11 and j = 20, 21, on an unstable weight set: 1e39 is a
  // finite input (a NaN or Inf expression is refused as input) that a float field cannot hold.
  TempDir dir;
  const auto r = run_case(dir, "nan",
                          "precision: float\n"
                          "grid: {points: [33, 33], extent: [8, 8], origin: [-1, 2]}\n"
                          "problem: {equation: custom}\n"
                          "stencil: {points: 5, weights: {center: 0.9, x: 0.2, y: 0.2}}\n"
                          "initial: \"(x > 1.4 && x < 1.8 && y > 6.9 && y < 7.3) ? 1e39 : 1\"\n"
                          "solve: {check_every: 10}\ncheckpoint: {every: 1}\n");
  INFO(r.output);
  CHECK(r.exit_code == 4);
  // One sweep carries the Inf to the 4 neighbours of every planted node (all weights are
  // non-zero): the planted square grown by a cross. In C order (j, then i):
  std::vector<std::array<long, 2>> bad;
  for (long j = 0; j < 33; ++j)
    for (long i = 0; i < 33; ++i) {
      const bool planted = i >= 10 && i <= 11 && j >= 20 && j <= 21;
      const bool next_to = ((i == 9 || i == 12) && j >= 20 && j <= 21) ||
                           ((j == 19 || j == 22) && i >= 10 && i <= 11);
      if (planted || next_to) bad.push_back({i, j});
    }
  REQUIRE(bad.size() == 12);
  CHECK(r.output.find("diverged at iteration 1: 12 non-finite value(s) of u") != std::string::npos);
  std::string listed;
  for (std::size_t n = 0; n < 10; ++n)
    listed += (n ? "; " : "") +
              node_text(bad[n][0], bad[n][1], -1 + bad[n][0] / 4.0, 2 + bad[n][1] / 4.0);
  CHECK(r.output.find("as node (i, j) at (x, y): " + listed + "; last state written to") !=
        std::string::npos);
  CHECK(count(r.output, "diverged at iteration") == 1);  // logged once
  CHECK(r.output.find(node_text(bad[10][0], bad[10][1], 1.5, 7.5)) == std::string::npos);

  // The last state is written, marked, listed in the .xmf; no checkpoint is written from it.
  const fs::path out = dir.path / "out";
  const auto snap = last_snapshot(out);
  CHECK(snap.info.iteration == 1);
  CHECK(snap.info.texts.at("status") == "diverged");
  CHECK(snap.info.texts.at("divergence").find(listed) != std::string::npos);
  CHECK(read_text(out / "nan.xmf").find("nan_00000001.h5") != std::string::npos);
  CHECK_FALSE(fs::exists(out / "checkpoint.h5"));
  const auto& u = field(snap, "u");
  std::vector<std::array<long, 2>> in_snapshot;
  for (std::size_t n = 0; n < u.size(); ++n)
    if (!std::isfinite(u[n])) in_snapshot.push_back({long(n % 33), long(n / 33)});
  CHECK(in_snapshot == bad);

  const auto rows = history(dir);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].nonfinite == 12);
  const std::string summary = read_text(out / "summary.json");
  CHECK(summary.find("\"status\": \"diverged\"") != std::string::npos);
  CHECK(summary.find("\"reason\": \"nonfinite\"") != std::string::npos);
  CHECK(summary.find("{\"node\": [10, 19], \"x\": [1.5, 6.75]}") != std::string::npos);
  CHECK(summary.find("\"snapshot\": \"nan_00000001.h5\"") != std::string::npos);
}

DIAG_TEST(
    "a weight of 1e200 overflows the planted nodes at the second sweep; the checkpoint "
    "before it stays") {
  // u' = 1e200 u: the planted 1 becomes 1e200 (finite, checkpointed at iteration 1), then Inf
  // at iteration 2 on exactly the planted nodes (their neighbours get 0 x 1e200 = 0).
  TempDir dir;
  const auto r = run_case(dir, "overflow",
                          "grid: {points: [17, 13]}\nproblem: {equation: custom}\n"
                          "stencil: {points: 5, weights: {center: 1e200, x: 0, y: 0}}\n"
                          "initial: \"(x >= 4 && x <= 6 && y == 3) ? 1 : 0\"\n"
                          "solve: {check_every: 1, norm: linf, divergence_factor: 1e300}\n"
                          "checkpoint: {every: 1}\n");
  INFO(r.output);
  CHECK(r.exit_code == 4);
  CHECK(r.output.find("diverged at iteration 2: 3 non-finite value(s) of u (NaN or Inf); at "
                      "node (i, j) at (x, y): (4, 3) at (4, 3); (5, 3) at (5, 3); (6, 3) at "
                      "(6, 3); last state written to") != std::string::npos);
  const fs::path out = dir.path / "out";
  CHECK(last_snapshot(out).info.texts.at("status") == "diverged");
  REQUIRE(fs::exists(out / "checkpoint.h5"));
  const auto checkpoint = fdsolve::output::read_snapshot((out / "checkpoint.h5").string());
  CHECK(checkpoint.info.iteration == 1);
  for (const double v : field(checkpoint, "u")) CHECK(std::isfinite(v));
  CHECK(r.output.find("checkpoint at iteration 2") == std::string::npos);
}

DIAG_TEST("a finite blow-up stops at the first check past divergence_factor, at its node") {
  // u' = 2 u from a single 1 at node (6, 6) = (0.5, 2): the update is 2^(k-1) there and 0
  // elsewhere, so the norm of check k is 2^(k-1) times the first one.
  const std::string yaml =
      "grid: {points: [17, 13], extent: [4, 3], origin: [-1, 0.5]}\n"
      "problem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 2, x: 0, y: 0}}\n"
      "initial: \"(abs(x - 0.5) < 0.1 && abs(y - 2) < 0.1) ? 1 : 0\"\n"
      "solve: {check_every: 5}\ncheckpoint: {every: 10}\n";
  long stop = 5;
  while (!(std::ldexp(1.0, int(stop) - 1) > 1e6)) stop += 5;
  REQUIRE(stop == 25);
  for (const bool diagnostics : {true, false}) {
    CAPTURE(diagnostics);
    TempDir dir;
    const auto r = run_case(dir, "grow", yaml, diagnostics ? "" : " --set solve.diagnostics=false");
    INFO(r.output);
    CHECK(r.exit_code == 4);
    CHECK(r.output.find("diverged at iteration 25: the norm") != std::string::npos);
    CHECK(r.output.find("every value of u is finite; the largest update |u' - u| = "
                        "1.677722e+07 is at (i, j) = (6, 6), (x, y) = (0.5, 2); last state") !=
          std::string::npos);
    const fs::path out = dir.path / "out";
    const auto checkpoint = fdsolve::output::read_snapshot((out / "checkpoint.h5").string());
    CHECK(checkpoint.info.iteration == 20);  // written before the blow-up, never after it
    const auto snap = last_snapshot(out);
    CHECK(snap.info.iteration == 25);
    CHECK(snap.info.texts.at("status") == "diverged");
    CHECK(read_text(out / "summary.json").find("\"reason\": \"norm\"") != std::string::npos);
    const auto rows = history(dir);
    REQUIRE(rows.size() == 6);
    for (const HistoryRow& row : rows) {
      CAPTURE(row.iteration);
      CHECK(row.diagnosed == diagnostics);
      CHECK(row.max == std::ldexp(1.0, int(row.iteration)));
      CHECK(row.min == 0);
      if (!diagnostics) continue;
      CHECK(row.nonfinite == 0);
      CHECK(row.linf_at == std::array<std::int64_t, 3>{6, 6, 0});
      CHECK(row.mean == std::ldexp(1.0, int(row.iteration)) / (17 * 13));
      CHECK(row.p99 == 0);  // 1 update in 165 is not 0: below the 1% share
    }
  }
}

DIAG_TEST("history.csv and summary.json agree with a recomputation from the final snapshot") {
  TempDir dir;
  fs::create_directories(dir.path);
  const auto r = run_fdsolve("run " + example("plate.yaml") + kBackend +
                             " --set grid.points=[33,25] --set solve.tolerance=1e-3"
                             " --set solve.check_every=10 --set output.every=0 --output " +
                             (dir.path / "out").string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The documented columns, with the balance of a 2D Laplace case before wall_seconds.
  std::string header = fdsolve::output::history_header;
  header.insert(header.size() - std::string("wall_seconds").size(),
                "integral,flux_x_min,flux_x_max,flux_y_min,flux_y_max,");
  CHECK(read_text(dir.path / "out" / "history.csv").rfind(header + "\n", 0) == 0);
  const auto rows = history(dir);
  REQUIRE(rows.size() >= 3);
  for (const HistoryRow& row : rows) {
    CAPTURE(row.iteration);
    CHECK(row.diagnosed);
    CHECK(row.nonfinite == 0);
    CHECK(row.p50 <= row.p90);
    CHECK(row.p90 <= row.p99);
    CHECK(row.p99 <= 1.25 * row.norm_linf);
  }
  const HistoryRow& last = rows.back();
  const auto snap = last_snapshot(dir.path / "out");
  CHECK(snap.info.iteration == last.iteration);
  const auto& u = field(snap, "u");
  const auto& d = field(snap, "update");
  const long nx = 33, ny = 25;
  // Range and mean of the whole field (boundary included).
  CHECK(last.min == *std::min_element(u.begin(), u.end()));
  CHECK(last.max == *std::max_element(u.begin(), u.end()));
  double sum = 0;
  for (const double v : u) sum += v;
  CHECK(last.mean == doctest::Approx(sum / double(u.size())).epsilon(1e-12));
  // The update over the updated (interior) nodes: norms, its largest node, percentiles. A
  // reported percentile is the upper edge of the bin holding the true one: above it, and at
  // most a bin width (x1.25) away.
  std::vector<double> mag;
  double sum_sq = 0, largest = -1;
  long at_i = -1, at_j = -1;
  for (long j = 1; j < ny - 1; ++j)
    for (long i = 1; i < nx - 1; ++i) {
      const double a = std::fabs(d[std::size_t(j * nx + i)]);
      mag.push_back(a);
      sum_sq += a * a;
      if (a > largest) largest = a, at_i = i, at_j = j;
    }
  CHECK(last.norm_l2 == doctest::Approx(std::sqrt(sum_sq / double(mag.size()))));
  CHECK(last.norm_linf == largest);
  CHECK(last.linf_at == std::array<std::int64_t, 3>{at_i, at_j, 0});
  std::sort(mag.begin(), mag.end());
  for (const auto& [percent, reported] :
       {std::pair{50, last.p50}, std::pair{90, last.p90}, std::pair{99, last.p99}}) {
    CAPTURE(percent);
    const auto rank = (std::size_t(percent) * mag.size() + 99) / 100;  // ceil(p M / 100)
    const double truth = mag[rank - 1];
    if (truth == 0) {
      CHECK(reported == 0);
      continue;
    }
    CHECK(truth < reported);
    CHECK(reported <= 1.25 * truth);
  }
  // summary.json: every row, the last one with its node's coordinates (spacing 1/32, 1/24).
  const std::string summary = read_text(dir.path / "out" / "summary.json");
  CHECK(count(summary, "{\"iteration\": ") == int(rows.size()));
  CHECK(summary.find("\"diagnostics\": true") != std::string::npos);
  CHECK(summary.find("\"divergence\": null") != std::string::npos);
  char node[128];
  std::snprintf(node, sizeof node, "\"linf_at\": {\"node\": [%ld, %ld], \"x\": [%.17g, %.17g]}",
                at_i, at_j, at_i * (1.0 / 32), at_j * (1.0 / 24));
  CHECK(summary.find(node) != std::string::npos);
  CHECK(summary.find("\"last_check\": {\n    \"iteration\": " + std::to_string(last.iteration)) !=
        std::string::npos);
}

DIAG_TEST("a stagnating norm is warned about once, with the iterations still needed") {
  // sin(pi x) sin(pi y) is an eigenvector of the 5-point Jacobi sweep on a 65x65 unit square:
  // every sweep scales the update by cos(pi/64), 0.6% over 5 checks of one iteration.
  TempDir dir;
  const auto r = run_case(dir, "eig",
                          "grid: {points: [65, 65], extent: [1, 1]}\n"
                          "initial: \"sin(pi*x)*sin(pi*y)\"\n"
                          "solve: {method: jacobi, check_every: 1, stagnation_checks: 5, "
                          "max_iterations: 20}\n");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK(count(r.output, "has fallen by less than 1% over the last 5 checks") == 1);
  CHECK(r.output.find("(iterations 1 to 6:") != std::string::npos);
  const double radius = std::cos(M_PI / 64);
  char expect[160];
  std::snprintf(expect, sizeof expect,
                "on this 65x65 grid the spectral radius is %.9g, which predicts about %.3g more "
                "iterations to the target",
                radius, std::log(1e-6) / std::log(radius) - 5);
  CHECK(r.output.find(expect) != std::string::npos);
  CHECK(r.output.find("max_iterations allows 14 more") != std::string::npos);

  // A checkerboard on a periodic grid under u' = (W + E) / 2 flips sign every sweep: the norm
  // never falls.
  TempDir flip;
  const std::string checker =
      "grid: {points: [16, 8]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0, x: 0.5, y: 0}}\n"
      "boundary: {default: {type: periodic}}\ninitial: \"cos(pi*x)\"\n"
      "solve: {check_every: 10, stagnation_checks: 5, max_iterations: 300}\n";
  const auto f = run_case(flip, "checker", checker);
  INFO(f.output);
  CHECK(f.exit_code == 3);
  CHECK(count(f.output, "has fallen by less than 1%") == 1);
  CHECK(f.output.find("(iterations 1 to 50: 2.0000e+00 to 2.0000e+00") != std::string::npos);
  CHECK(f.output.find("spectral radius 1 >= 1") != std::string::npos);
  TempDir off;
  const auto o = run_case(off, "checker", checker, " --set solve.stagnation_checks=0");
  CHECK(o.exit_code == 3);
  CHECK(o.output.find("has fallen by less than") == std::string::npos);
}

DIAG_TEST("a NaN in a 3D field spreads to the 27-point neighbourhood and is located in z too") {
  // Node (i, j, k) lies at (0.5 i, 1 + 0.5 j, -2 + 0.25 k); Inf planted at (4, 5, 6) (1e39 in a
  // float field, as above).
  TempDir dir;
  const auto r = run_case(dir, "cube",
                          "precision: float\n"
                          "grid: {points: [9, 10, 11], extent: [4, 4.5, 2.5], "
                          "origin: [0, 1, -2]}\nproblem: {equation: custom}\n"
                          "stencil: {points: 27, weights: {center: 0.5, face: 0.2, edge: 0.01, "
                          "corner: 0.001}}\n"
                          "initial: \"(x == 2 && y == 3.5 && z == -0.5) ? 1e39 : 0\"\n");
  INFO(r.output);
  CHECK(r.exit_code == 4);
  // Every weight is non-zero: the 3x3x3 block around the node, k = 5..7, j = 4..6, i = 3..5.
  std::string listed;
  int n = 0;
  for (long k = 5; k <= 7 && n < 10; ++k)
    for (long j = 4; j <= 6 && n < 10; ++j)
      for (long i = 3; i <= 5 && n < 10; ++i, ++n) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s(%ld, %ld, %ld) at (%g, %g, %g)", n ? "; " : "", i, j, k,
                      0.5 * i, 1 + 0.5 * j, -2 + 0.25 * k);
        listed += buf;
      }
  CHECK(r.output.find("diverged at iteration 1: 27 non-finite value(s) of u (NaN or Inf); the "
                      "first 10 in C order (x fastest), as node (i, j, k) at (x, y, z): " +
                      listed + "; last state") != std::string::npos);
}

#if FDSOLVE_TEST_CUDA
namespace {

/// The divergence line of a run's log without the output path, and with its norms (summed in
/// a backend's own order) masked: counts, iterations, nodes and coordinates stay.
std::string divergence_line(const std::string& log) {
  const auto start = log.find("diverged at ");
  if (start == std::string::npos) return "(none)";
  const std::string line = log.substr(start, log.find("; last state written", start) - start);
  return std::regex_replace(line, std::regex("[0-9]\\.[0-9]+e[+-][0-9]+"), "#");
}

/// The "nodes" of summary.json's divergence object.
std::string divergence_nodes(const fs::path& out) {
  const std::string s = read_text(out / "summary.json");
  const auto start = s.find("\"nodes\"", s.find("\"divergence\""));
  if (start == std::string::npos) return "(none)";
  return s.substr(start, s.find("\n    ]", start) - start);  // the array's closing line
}

}  // namespace

TEST_CASE("gpu: CUDA and the CPU agree exactly on where and when a run diverges") {
  struct Run {
    std::string name, yaml, sets;
  };
  const std::string nan =
      "grid: {points: [33, 33], extent: [8, 8], origin: [-1, 2]}\n"
      "problem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.9, x: 0.2, y: 0.2}}\n"
      "initial: \"(x > 1.4 && x < 1.8 && y > 6.9 && y < 7.3) ? 1e39 : 1\"\n";
  // 1e39 (a NaN input is refused): Inf in float, a finite spike growing to a norm blow-up in
  // double.
  const std::string grow =
      "grid: {points: [17, 13], extent: [4, 3], origin: [-1, 0.5]}\n"
      "problem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 2, x: 0, y: 0}}\n"
      "initial: \"(abs(x - 0.5) < 0.1 && abs(y - 2) < 0.1) ? 1 : 0\"\nsolve: {check_every: 5}\n";
  // A spike on the unstable study weights, as a user would meet it: it grows and spreads until
  // the norm passes divergence_factor, located by its largest update.
  const std::string spread =
      "grid: {points: [41, 37]}\nproblem: {equation: custom}\n"
      "stencil: {points: 5, weights: {center: 0.9, x: 0.2, y: 0.2}}\n"
      "initial: \"(x == 13 && y == 20) ? 1 : 0\"\nsolve: {check_every: 3}\n";
  const std::string cube =
      "grid: {points: [9, 10, 11]}\nproblem: {equation: custom}\n"
      "stencil: {points: 27, weights: {center: 0.5, face: 0.2, edge: 0.01, corner: 0.001}}\n"
      "initial: \"(x == 4 && y == 5 && z == 6) ? 1e39 : 1\"\n";
  for (const Run& run : {Run{"nan", nan, ""}, Run{"nan", nan, " --set precision=float"},
                         Run{"nan", nan, " --set solve.diagnostics=false"}, Run{"grow", grow, ""},
                         Run{"spread", spread, ""}, Run{"spread", spread, " --set precision=float"},
                         Run{"cube", cube, ""}, Run{"cube", cube, " --set precision=float"}}) {
    CAPTURE(run.name);
    CAPTURE(run.sets);
    TempDir cpu, gpu;
    fs::create_directories(cpu.path);
    fs::create_directories(gpu.path);
    std::ofstream(cpu.path / (run.name + ".yaml")) << run.yaml;
    std::ofstream(gpu.path / (run.name + ".yaml")) << run.yaml;
    const auto rc =
        run_fdsolve("run " + (cpu.path / (run.name + ".yaml")).string() +
                    " --backend cpu --output " + (cpu.path / "out").string() + run.sets);
    const auto rg =
        run_fdsolve("run " + (gpu.path / (run.name + ".yaml")).string() +
                    " --backend cuda --output " + (gpu.path / "out").string() + run.sets);
    INFO(rc.output, rg.output);
    REQUIRE(rc.exit_code == 4);
    REQUIRE(rg.exit_code == 4);
    CHECK(divergence_line(rc.output) == divergence_line(rg.output));
    CHECK(divergence_nodes(cpu.path / "out") == divergence_nodes(gpu.path / "out"));
    const auto hc = history(cpu), hg = history(gpu);
    REQUIRE(hc.size() == hg.size());
    for (std::size_t n = 0; n < hc.size(); ++n) {
      CAPTURE(hc[n].iteration);
      CHECK(hc[n].iteration == hg[n].iteration);
      CHECK(hc[n].diagnosed == hg[n].diagnosed);
      CHECK(hc[n].nonfinite == hg[n].nonfinite);
      CHECK(hc[n].linf_at == hg[n].linf_at);
      // Equal infinities (a float field that overflowed) compare equal; Approx would not.
      const auto close = [](double a, double b) {
        return a == b || a == doctest::Approx(b).epsilon(1e-6);
      };
      CHECK(close(hc[n].min, hg[n].min));
      CHECK(close(hc[n].max, hg[n].max));
      if (std::isnan(hc[n].p99)) {
        CHECK(std::isnan(hg[n].p99));
      } else {
        CHECK(hc[n].p99 <= 1.25 * hg[n].p99);  // within a bin: a rounding difference can move
        CHECK(hg[n].p99 <= 1.25 * hc[n].p99);  // one update across a bin edge
      }
    }
  }
}

TEST_CASE("gpu: CUDA's check diagnostics of a converging run match the CPU's") {
  TempDir cpu, gpu;
  const std::string base = "run " + example("plate.yaml") +
                           " --set grid.points=[67,45] --set solve.tolerance=0"
                           " --set solve.max_iterations=700 --set solve.check_every=50";
  const auto rc = run_fdsolve(base + " --backend cpu --output " + (cpu.path / "out").string());
  const auto rg = run_fdsolve(base + " --backend cuda --output " + (gpu.path / "out").string());
  INFO(rc.output, rg.output);
  REQUIRE(rc.exit_code == 3);
  REQUIRE(rg.exit_code == 3);
  const auto hc = history(cpu), hg = history(gpu);
  REQUIRE(hc.size() == hg.size());
  for (std::size_t n = 0; n < hc.size(); ++n) {
    CAPTURE(hc[n].iteration);
    CHECK(hg[n].nonfinite == 0);
    CHECK(hc[n].nonfinite == 0);
    CHECK(hc[n].min == doctest::Approx(hg[n].min).epsilon(1e-12));
    CHECK(hc[n].max == doctest::Approx(hg[n].max).epsilon(1e-12));
    CHECK(hc[n].mean == doctest::Approx(hg[n].mean).epsilon(1e-12));
    CHECK(hc[n].norm_l2 == doctest::Approx(hg[n].norm_l2).epsilon(1e-9));
    // Percentiles are bin edges: a rounding difference can move one node across an edge, which
    // moves a percentile by at most one bin (x1.25).
    for (const auto p : {&HistoryRow::p50, &HistoryRow::p90, &HistoryRow::p99}) {
      CHECK(hc[n].*p <= 1.25 * hg[n].*p);
      CHECK(hg[n].*p <= 1.25 * hc[n].*p);
    }
  }
}
#endif
