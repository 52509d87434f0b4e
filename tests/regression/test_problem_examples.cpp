// The heat and periodic examples through the CLI on the CPU, against analytic answers: the 1D
// series solution of the insulated plate, and the exact solution of the periodic channel.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

TEST_CASE("regression: heat_plate follows the 1D series solution and stores physical times") {
  TempDir out;
  const auto r =
      run_fdsolve("run " + example("heat_plate.yaml") + " --backend cpu --output " +
                  out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = last_snapshot(out.path);
  CHECK(s.info.time == doctest::Approx(0.1).epsilon(1e-14));
  const auto& g = s.info.grid;
  const auto& u = field(s, "u");
  double err = 0, spread = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 0; i < g.points[0]; ++i) {
      const double x = i * g.spacing[0], t = 0.1;
      double exact = 1 - x;
      for (int n = 1; n < 200; ++n)
        exact -= 2 / (n * M_PI) * std::exp(-n * n * M_PI * M_PI * t) * std::sin(n * M_PI * x);
      const double v = u[j * g.points[0] + i];
      err = std::max(err, std::fabs(v - exact));
      spread = std::max(spread, std::fabs(v - u[i]));  // insulated y faces: uniform in y
    }
  CHECK(err < 2e-3);  // O(h^2 + dt) with h = 1/64
  CHECK(spread < 1e-13);
  // The .xmf lists the snapshots with their physical times, not step numbers.
  const std::string xmf = read_text(out.path / "heat_plate.xmf");
  char last_time[64];
  std::snprintf(last_time, sizeof last_time, "Value=\"%.17g\"", 0.1);
  CHECK(xmf.find(last_time) != std::string::npos);
  CHECK(xmf.find("Value=\"1800\"") == std::string::npos);  // no step number stands in
  CHECK(fs::exists(out.path / "checkpoint.h5"));
}

TEST_CASE("regression: heat_plate_implicit (Crank-Nicolson) beats the explicit example's error") {
  TempDir out;
  const auto r = run_fdsolve("run " + example("heat_plate_implicit.yaml") +
                             " --backend cpu --output " + out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // dt is 33x the limit, but the two backward-Euler half steps damp the jump first.
  CHECK(r.output.find("rings node to node") == std::string::npos);
  CHECK(r.output.find("Rannacher start: 2 backward-Euler steps") != std::string::npos);
  const auto s = last_snapshot(out.path);
  CHECK(s.info.iteration == 201);
  CHECK(s.info.time == doctest::Approx(0.1).epsilon(1e-14));
  const auto& g = s.info.grid;
  const auto& u = field(s, "u");
  double err = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 0; i < g.points[0]; ++i) {
      const double x = i * g.spacing[0], t = 0.1;
      double exact = 1 - x;
      for (int n = 1; n < 2000; ++n)
        exact -= 2 / (n * M_PI) * std::exp(-n * n * M_PI * M_PI * t) * std::sin(n * M_PI * x);
      err = std::max(err, std::fabs(u[j * g.points[0] + i] - exact));
    }
  // The discrete answer (closed form per sine mode: two BE half steps, then CN) is 4.08e-6
  // from the series; the explicit scheme at this grid is 1.7e-5 off with 7282 steps
  // (docs/performance.md).
  CHECK(err < 5e-6);
  // Every step's row: its final residual and the cycles it took.
  const std::string history = read_text(out.path / "history.csv");
  CHECK(history.find(",cycles,") != std::string::npos);
  CHECK(std::count(history.begin(), history.end(), '\n') == 202);
  // `check` says what the start does, and warns about ringing when there is none.
  const auto started = run_fdsolve("check " + example("heat_plate_implicit.yaml"));
  CHECK(started.output.find("Rannacher start: 2 backward-Euler steps") != std::string::npos);
  CHECK(started.output.find("rings node to node") == std::string::npos);
  const auto plain =
      run_fdsolve("check " + example("heat_plate_implicit.yaml") + " --set time.startup_steps=0");
  CHECK(plain.output.find("rings node to node") != std::string::npos);
}

TEST_CASE("regression: periodic_channel matches its exact solution") {
  TempDir out;
  const auto r = run_fdsolve("run " + example("periodic_channel.yaml") +
                             " --backend cpu --output " + out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = last_snapshot(out.path);
  const auto& g = s.info.grid;
  CHECK(g.spacing[0] == doctest::Approx(1.0 / 64).epsilon(1e-15));
  const auto& u = field(s, "u");
  double err = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 0; i < g.points[0]; ++i) {
      const double x = i * g.spacing[0], y = j * g.spacing[1];
      err = std::max(err, std::fabs(u[j * g.points[0] + i] -
                                    std::sin(2 * M_PI * x) * std::sin(M_PI * y / 2)));
    }
  CHECK(err < 2e-3);
}

TEST_CASE("regression: an initial state read from a snapshot continues the run exactly") {
  // 100 + 100 Jacobi iterations from a snapshot equal 200 in one run, bit for bit: the file
  // path and the data reach the sweep unchanged.
  TempDir first, second, whole;
  const std::string base = "run " + example("plate.yaml") +
                           " --backend cpu --set grid.points=[33,33] --set solve.tolerance=0 ";
  REQUIRE(run_fdsolve(base + "--set solve.max_iterations=100 --output " + first.path.string())
              .exit_code == 3);
  const std::string snapshot = (first.path / "plate_00000100.h5").string();
  const auto r = run_fdsolve(base + "--set solve.max_iterations=100 --set 'initial={file: " +
                             snapshot + ", dataset: /u}' --output " + second.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 3);
  REQUIRE(run_fdsolve(base + "--set solve.max_iterations=200 --output " + whole.path.string())
              .exit_code == 3);
  CHECK(field(last_snapshot(second.path), "u") == field(last_snapshot(whole.path), "u"));
}

TEST_CASE("regression: a Poisson source read from a file equals the same source as an expression") {
  TempDir dir, from_file, from_expression;
  fs::create_directories(dir.path);
  // The source of poisson_box at its 17^3 nodes, written as float64 [nz][ny][nx].
  const int n = 17;
  std::vector<double> f(n * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        f[(k * n + j) * n + i] = 3 * M_PI * M_PI * std::sin(M_PI * i / (n - 1)) *
                                 std::sin(M_PI * j / (n - 1)) * std::sin(M_PI * k / (n - 1));
  fdsolve::output::SnapshotInfo info;
  info.grid.dims = 3;
  info.grid.points = {n, n, n};
  const std::string data = (dir.path / "f.h5").string();
  fdsolve::output::write_snapshot<double>(data, info, {{"f", f.data()}});
  const std::string base = "run " + example("poisson_box.yaml") +
                           " --backend cpu --set grid.points=[17,17,17] ";
  const auto a = run_fdsolve(base + "--set 'problem.source={file: " + data +
                             ", dataset: /f}' --output " + from_file.path.string());
  const auto b = run_fdsolve(base + "--output " + from_expression.path.string());
  INFO(a.output, b.output);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  // The snapshots are kept: field() returns a reference into them (ASan caught a dangling one).
  const auto snapshot_a = last_snapshot(from_file.path);
  const auto snapshot_b = last_snapshot(from_expression.path);
  const auto& ua = field(snapshot_a, "u");
  const auto& ub = field(snapshot_b, "u");
  REQUIRE(ua.size() == ub.size());
  double diff = 0;
  for (std::size_t i = 0; i < ua.size(); ++i) diff = std::max(diff, std::fabs(ua[i] - ub[i]));
  CHECK(diff < 1e-10);
}
