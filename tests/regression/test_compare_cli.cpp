// `fdsolve compare` through the binary: exit 0 equal / 1 different / 2 error, the largest
// absolute and relative errors with their (i, j[, k]) node, and directories matched by
// iteration. The snapshots are written here with known differences at known nodes.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;
namespace out = fdsolve::output;

namespace {

out::GridMeta grid_2d(std::int64_t nx, std::int64_t ny) {
  out::GridMeta g;
  g.dims = 2;
  g.points = {nx, ny, 1};
  g.origin = {-1.0, 2.0, 0.0};
  g.spacing = {0.5, 0.25, 1.0};
  return g;
}

std::string write(const fs::path& path, const out::GridMeta& grid, const std::vector<double>& u,
                  std::int64_t iteration = 0) {
  fs::create_directories(path.parent_path());
  out::SnapshotInfo info;
  info.iteration = iteration;
  info.time = static_cast<double>(iteration);
  info.grid = grid;
  info.config_yaml = "name: c\n";
  out::write_snapshot<double>(path.string(), info, {{"u", u.data()}});
  return path.string();
}

bool has(const CliResult& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("compare cli: two files, the worst errors and their nodes") {
  TempDir dir;
  const out::GridMeta g = grid_2d(5, 4);
  std::vector<double> b(20, 4.0);
  std::vector<double> a = b;
  a[3 * 5 + 2] = 5.0;  // (2, 3): abs 1, rel 0.25
  const std::string pa = write(dir.path / "a.h5", g, a);
  const std::string pb = write(dir.path / "b.h5", g, b);

  const auto r = run_fdsolve("compare " + pa + " " + pb + " --rtol 0.1");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK(has(r,
            "u: max abs diff 1.000e+00 at (2, 3), max rel diff 2.500e-01 at (2, 3); "
            "1 of 20 values outside the tolerance"));
  CHECK(has(r, "different:"));

  const auto loose = run_fdsolve("compare " + pa + " " + pb + " --rtol 0.3");
  CHECK(loose.exit_code == 0);
  CHECK(has(loose, "equal:"));
  CHECK(run_fdsolve("compare " + pa + " " + pb + " --rtol 0 --atol 1").exit_code == 0);
  CHECK(run_fdsolve("compare " + pb + " " + pb + " --rtol 0 --atol 0").exit_code == 0);

  std::vector<double> with_nan = b;
  with_nan[7] = std::nan("");
  const std::string pn = write(dir.path / "n.h5", g, with_nan);
  const auto nan = run_fdsolve("compare " + pn + " " + pn + " --rtol 1 --atol 1");
  INFO(nan.output);
  CHECK(nan.exit_code == 1);
  CHECK(has(nan, "1 NaN (first at (2, 1))"));
}

TEST_CASE("compare cli: shape and grid mismatches are differences") {
  TempDir dir;
  const std::vector<double> u(20, 1.0);
  const std::string a = write(dir.path / "a.h5", grid_2d(5, 4), u);
  const auto shape = run_fdsolve("compare " + a + " " + write(dir.path / "b.h5", grid_2d(4, 5), u));
  CHECK(shape.exit_code == 1);
  CHECK(has(shape, "grid shape differs: 5x4 vs 4x5"));

  out::GridMeta moved = grid_2d(5, 4);
  moved.origin[0] = -0.5;
  moved.spacing[1] = 0.5;
  const auto grid = run_fdsolve("compare " + a + " " + write(dir.path / "c.h5", moved, u));
  CHECK(grid.exit_code == 1);
  CHECK(has(grid, "origin x differs: -1 vs -0.5"));
  CHECK(has(grid, "spacing y differs: 0.25 vs 0.5"));
}

TEST_CASE("compare cli: errors exit 2") {
  TempDir dir;
  const std::string a = write(dir.path / "a.h5", grid_2d(3, 3), std::vector<double>(9, 0.0));
  const fs::path text = dir.path / "notes.h5";
  std::ofstream(text) << "this is not HDF5\n";
  CHECK(run_fdsolve("compare " + a + " " + (dir.path / "missing.h5").string()).exit_code == 2);
  const auto not_h5 = run_fdsolve("compare " + a + " " + text.string());
  CHECK(not_h5.exit_code == 2);
  CHECK(has(not_h5, text.string()));
  CHECK(run_fdsolve("compare " + a + " " + dir.path.string()).exit_code == 2);  // file vs dir
  CHECK(run_fdsolve("compare " + a + " " + a + " --rtol -1").exit_code == 2);
  CHECK(run_fdsolve("compare " + a).exit_code == 2);
  TempDir empty;
  fs::create_directories(empty.path);
  const auto none = run_fdsolve("compare " + dir.path.string() + " " + empty.path.string());
  CHECK(none.exit_code == 2);
  CHECK(has(none, "holds no snapshot"));
}

TEST_CASE("compare cli: output directories of two runs, snapshots matched by iteration") {
  TempDir a, b;
  const std::string run = "run " + example("plate.yaml") +
                          " --backend cpu --set grid.points=[21,17] --set output.every=100 "
                          "--set solve.max_iterations=300 --output ";
  REQUIRE(run_fdsolve(run + a.path.string() + " --set name=first").exit_code == 3);
  REQUIRE(run_fdsolve(run + b.path.string() + " --set name=second").exit_code == 3);
  const auto same =
      run_fdsolve("compare " + a.path.string() + " " + b.path.string() + " --rtol 0 --atol 0");
  INFO(same.output);
  CHECK(same.exit_code == 0);
  // Iterations 100, 200 and 300 matched across the two case names.
  for (const char* it : {"00000100", "00000200", "00000300"}) {
    CHECK(has(same, std::string("first_") + it + ".h5 vs second_" + it +
                        ".h5: u: max abs diff "
                        "0.000e+00"));
  }
  // A snapshot of one directory only is named, not compared, and no difference...
  fs::remove(b.path / "second_00000200.h5");
  const auto missing = run_fdsolve("compare " + a.path.string() + " " + b.path.string());
  INFO(missing.output);
  CHECK(missing.exit_code == 0);
  CHECK(has(missing, "not compared: first_00000200.h5: only in " + a.path.string()));
  CHECK(has(missing, "; 2 snapshots compared, 1 in one directory only (not compared)"));
  CHECK_FALSE(has(missing, "difference:"));
  // ...unless it is the last: the runs then end at different iterations.
  fs::remove(b.path / "second_00000300.h5");
  const auto shorter = run_fdsolve("compare " + a.path.string() + " " + b.path.string());
  INFO(shorter.output);
  CHECK(shorter.exit_code == 1);
  CHECK(has(shorter,
            "difference: the runs end at different iterations: the last snapshot is "
            "first_00000300.h5 (iteration 300) in " +
                a.path.string() + ", second_00000100.h5 (iteration 100) in " + b.path.string()));
  CHECK(has(shorter, "not compared: first_00000300.h5: only in " + a.path.string()));
}

TEST_CASE("compare cli: a resumed run equals the uninterrupted one; its stop's snapshot is named") {
  TempDir whole, resumed;
  const std::string run = "run " + example("plate.yaml") +
                          " --backend cpu --set grid.points=[25,21] --set checkpoint.every=37 "
                          "--set solve.tolerance=1e-4 --output ";
  REQUIRE(run_fdsolve(run + whole.path.string()).exit_code == 0);
  REQUIRE(run_fdsolve(run + resumed.path.string() + " --set solve.max_iterations=37").exit_code ==
          3);
  REQUIRE(run_fdsolve(run + resumed.path.string() + " --resume").exit_code == 0);
  // The stopped run left its state at iteration 37, which the uninterrupted run never wrote.
  REQUIRE(fs::exists(resumed.path / "plate_00000037.h5"));
  REQUIRE_FALSE(fs::exists(whole.path / "plate_00000037.h5"));
  const auto r = run_fdsolve("compare " + whole.path.string() + " " + resumed.path.string() +
                             " --rtol 0 --atol 0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(has(r, "not compared: plate_00000037.h5: only in " + resumed.path.string()));
  CHECK(has(r, "equal: max abs diff 0.000e+00"));
  CHECK(has(r, "; 1 snapshot compared, 1 in one directory only (not compared)"));
}
