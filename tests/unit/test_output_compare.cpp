// compare_paths: equal files, differences beyond tolerance with their node indices, NaN, shape
// and metadata mismatches, files that are not snapshots, and directories matched by iteration.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compare.hpp"
#include "output_error.hpp"
#include "run_output.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
using out::test::TempDir;

namespace {

out::SnapshotInfo info(std::int64_t iteration, double time, const out::GridMeta& grid) {
  out::SnapshotInfo result;
  result.iteration = iteration;
  result.time = time;
  result.grid = grid;
  result.config_yaml = "name: c\n";
  return result;
}

std::string write(const TempDir& dir, const std::string& name, const out::GridMeta& grid,
                  const std::vector<double>& u, std::int64_t iteration = 0) {
  const std::string path = dir / name;
  out::write_snapshot<double>(path, info(iteration, 0.5, grid), {{"u", u.data()}});
  return path;
}

bool mentions(const out::CompareReport& report, const std::string& text) {
  for (const std::string& line : report.differences) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("output: compare files within and beyond tolerance") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(3, 5, 4, 3);
  const std::vector<double> u = out::test::random_field<double>(60, 3);
  const std::string a = write(dir, "a.h5", grid, u);

  const out::CompareReport same = out::compare_paths(a, write(dir, "b.h5", grid, u), 0, 0);
  CHECK(same.equal);
  CHECK(same.differences.empty());
  CHECK(same.max_abs_diff == 0);

  std::vector<double> changed = u;
  changed[37] += 1e-3;  // node x 2, y 3, z 1 on a 5 x 4 x 3 grid
  const std::string c = write(dir, "c.h5", grid, changed);
  const out::CompareReport differ = out::compare_paths(a, c, 1e-9, 1e-9);
  CHECK_FALSE(differ.equal);
  REQUIRE(differ.differences.size() == 1);
  CHECK(mentions(differ, "1 of 60 values differ"));
  CHECK(mentions(differ, "worst at (2, 3, 1)"));
  REQUIRE(differ.fields.size() == 1);
  const out::FieldComparison& f = differ.fields[0];
  CHECK(f.field == "u");
  CHECK(f.outside == 1);
  CHECK(f.max_abs_at == out::NodeIndex{2, 3, 1});
  CHECK(f.max_rel_at == out::NodeIndex{2, 3, 1});
  CHECK(out::describe(f).find("at (2, 3, 1)") != std::string::npos);
  CHECK(differ.max_abs_diff == doctest::Approx(1e-3).epsilon(1e-6));
  CHECK(differ.max_rel_diff == doctest::Approx(1e-3 / std::abs(changed[37])).epsilon(1e-6));
  CHECK(out::compare_paths(a, c, 0, 2e-3).equal);                                 // atol covers it
  CHECK(out::compare_paths(a, c, 1e-3 / std::abs(changed[37]) * 1.01, 0).equal);  // rtol covers it

  std::vector<double> with_nan = u;
  with_nan[0] = std::numeric_limits<double>::quiet_NaN();
  const std::string n1 = write(dir, "n1.h5", grid, with_nan);
  const std::string n2 = write(dir, "n2.h5", grid, with_nan);
  CHECK_FALSE(out::compare_paths(n1, n2, 1, 1).equal);  // NaN is never equal, even to NaN
}

TEST_CASE("output: compare reports shape and metadata mismatches") {
  TempDir dir;
  const std::vector<double> u(60, 1.0);
  const std::string a = write(dir, "a.h5", out::test::make_grid(3, 5, 4, 3), u);
  const std::string b = write(dir, "b.h5", out::test::make_grid(3, 4, 5, 3), u);
  const out::CompareReport shape = out::compare_paths(a, b, 0, 0);
  CHECK_FALSE(shape.equal);
  CHECK(mentions(shape, "grid shape differs: 5x4x3 vs 4x5x3"));

  out::GridMeta shifted = out::test::make_grid(3, 5, 4, 3);
  shifted.origin[1] += 0.25;
  const std::string c = write(dir, "c.h5", shifted, u, 9);
  const out::CompareReport meta = out::compare_paths(a, c, 1e-6, 0);
  CHECK_FALSE(meta.equal);
  CHECK(mentions(meta, "origin y differs"));
  CHECK(mentions(meta, "iteration differs: 0 vs 9"));

  const std::string d = dir / "d.h5";
  out::write_snapshot<double>(d, info(0, 0.5, out::test::make_grid(3, 5, 4, 3)),
                              {{"u", u.data()}, {"source", u.data()}});
  CHECK(mentions(out::compare_paths(a, d, 0, 0), "field source only in the second"));

  CHECK_THROWS_AS(out::compare_paths(a, dir / "missing.h5", 0, 0), out::OutputError);
  CHECK_THROWS_AS(out::compare_paths(a, dir.path().string(), 0, 0), out::OutputError);
  CHECK_THROWS_AS(out::compare_paths(a, b, -1, 0), out::OutputError);
}

TEST_CASE("output: compare directories snapshot by snapshot") {
  TempDir dir_a;
  TempDir dir_b;
  const out::GridMeta grid = out::test::make_grid(2, 6, 4);
  const std::vector<float> u = out::test::random_field<float>(24, 5);
  out::RunOutput run_a(dir_a.path().string(), "run", grid, "a");
  out::RunOutput run_b(dir_b.path().string(), "run", grid, "b");  // configs may differ
  run_a.snapshot<float>(0, 0, {{"u", u.data()}});
  run_b.snapshot<float>(0, 0, {{"u", u.data()}});
  run_a.snapshot<float>(10, 1, {{"u", u.data()}});
  run_b.snapshot<float>(10, 1, {{"u", u.data()}});
  CHECK(out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0).equal);

  // A snapshot between the common ones, in B only: named, not compared, no difference.
  run_b.snapshot<float>(5, 0.5, {{"u", u.data()}});
  const out::CompareReport middle =
      out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0);
  CHECK(middle.equal);
  CHECK(middle.snapshots_compared == 2);
  REQUIRE(middle.one_side.size() == 1);
  CHECK(middle.one_side[0] == "run_00000005.h5: only in " + dir_b.path().string());

  // A's run goes on to iteration 20: the last snapshots differ, so the runs do.
  run_a.snapshot<float>(20, 2, {{"u", u.data()}});
  const out::CompareReport report =
      out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0);
  CHECK_FALSE(report.equal);
  REQUIRE(report.differences.size() == 1);
  CHECK(mentions(report,
                 "the runs end at different iterations: the last snapshot is "
                 "run_00000020.h5 (iteration 20) in " +
                     dir_a.path().string() + ", run_00000010.h5 (iteration 10) in " +
                     dir_b.path().string()));
  CHECK(report.one_side.size() == 2);
}

TEST_CASE("output: compare gives the largest absolute and relative error and where") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 6, 4);  // node (i, j) is value j*6 + i
  std::vector<double> b(24, 100.0);
  b[2 * 6 + 1] = 0.5;
  std::vector<double> a = b;
  a[1 * 6 + 4] += 2.0;  // (4, 1): abs 2, rel 0.02
  a[2 * 6 + 1] += 0.1;  // (1, 2): abs 0.1, rel 0.2
  const std::string pa = write(dir, "a.h5", grid, a);
  const std::string pb = write(dir, "b.h5", grid, b);

  const out::CompareReport r = out::compare_paths(pa, pb, 0.05, 0);
  REQUIRE(r.fields.size() == 1);
  const out::FieldComparison& f = r.fields[0];
  CHECK(f.max_abs == doctest::Approx(2.0));
  CHECK(f.max_abs_at == out::NodeIndex{4, 1, 0});
  CHECK(f.max_rel == doctest::Approx(0.2));
  CHECK(f.max_rel_at == out::NodeIndex{1, 2, 0});
  CHECK(f.outside == 1);  // rtol 0.05 covers (4, 1) (2 <= 5) but not (1, 2) (0.1 > 0.025)
  CHECK(f.worst_at == out::NodeIndex{1, 2, 0});
  CHECK_FALSE(r.equal);
  CHECK(out::describe(f) ==
        "u: max abs diff 2.000e+00 at (4, 1), max rel diff 2.000e-01 at (1, 2); "
        "1 of 24 values outside the tolerance");
  CHECK(r.max_abs_diff == doctest::Approx(2.0));
  CHECK(r.max_rel_diff == doctest::Approx(0.2));
  CHECK(out::compare_paths(pa, pb, 0.25, 0).equal);
  CHECK(out::compare_paths(pa, pb, 0, 2.0).equal);  // atol alone covers both

  // Relative to a zero reference value the error is infinite.
  std::vector<double> zero = b;
  zero[5] = 0;
  std::vector<double> off = zero;
  off[5] = 1e-30;
  const out::CompareReport z =
      out::compare_paths(write(dir, "z1.h5", grid, off), write(dir, "z2.h5", grid, zero), 0, 0);
  CHECK(std::isinf(z.fields.at(0).max_rel));
  CHECK(z.fields.at(0).max_rel_at == out::NodeIndex{5, 0, 0});
}

TEST_CASE("output: any NaN is a difference, equal infinities are not") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(3, 4, 3, 3);
  const std::vector<double> u(36, 1.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a = u, b = u;
  a[2 * 12 + 0 * 4 + 3] = nan;  // (3, 0, 2)
  b[1 * 12 + 2 * 4 + 1] = nan;  // (1, 2, 1): the first NaN in memory order
  a[0] = b[0] = INFINITY;
  a[35] = 1.5;
  const out::CompareReport r =
      out::compare_paths(write(dir, "a.h5", grid, a), write(dir, "b.h5", grid, b), 1e6, 1e6);
  CHECK_FALSE(r.equal);
  const out::FieldComparison& f = r.fields.at(0);
  CHECK(f.nan_values == 2);
  CHECK(f.outside == 2);  // the NaN positions; 1.5 vs 1 is within the huge tolerance
  CHECK(f.first_nan_at == out::NodeIndex{1, 2, 1});
  CHECK(f.max_abs == doctest::Approx(0.5));  // NaN and the equal infinities left out
  CHECK(f.max_abs_at == out::NodeIndex{3, 2, 2});
  CHECK(out::describe(f).find("2 NaN (first at (1, 2, 1))") != std::string::npos);
  CHECK(mentions(r, "u: 2 of 36 values differ (2 NaN)"));

  std::vector<double> inf = u;
  inf[7] = -INFINITY;
  CHECK(out::compare_paths(write(dir, "i1.h5", grid, inf), write(dir, "i2.h5", grid, inf), 0, 0)
            .equal);
}

TEST_CASE("output: compare refuses what is not a snapshot") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 3, 3);
  const std::vector<double> u(9, 2.0);
  const std::string a = write(dir, "a.h5", grid, u);
  const std::string empty = dir / "empty.h5";  // HDF5, attributes and /config, but no field
  out::write_snapshot<double>(empty, info(0, 0, grid), {});
  const std::string text = dir / "text.h5";
  { std::ofstream(text) << "not HDF5\n"; }
  CHECK_THROWS_WITH_AS(out::compare_paths(a, empty, 0, 0),
                       doctest::Contains("is not an fdsolve snapshot"), out::OutputError);
  CHECK_THROWS_AS(out::compare_paths(text, a, 0, 0), out::OutputError);
  CHECK_THROWS_AS(out::compare_paths(a, a, std::nan(""), 0), out::OutputError);
  TempDir no_snapshots;
  CHECK_THROWS_WITH_AS(out::compare_paths(dir.path().string(), no_snapshots.path().string(), 0, 0),
                       doctest::Contains("holds no snapshot"), out::OutputError);
}

TEST_CASE("output: directories are matched by iteration, whatever the case names") {
  TempDir dir_a;
  TempDir dir_b;
  const out::GridMeta grid = out::test::make_grid(2, 5, 3);
  const std::vector<double> u = out::test::random_field<double>(15, 9);
  out::RunOutput run_a(dir_a.path().string(), "first", grid, "a");
  out::RunOutput run_b(dir_b.path().string(), "second", grid, "b");
  for (const std::int64_t iteration : {0, 100, 200}) {
    run_a.snapshot<double>(iteration, static_cast<double>(iteration), {{"u", u.data()}});
    run_b.snapshot<double>(iteration, static_cast<double>(iteration), {{"u", u.data()}});
  }
  const out::CompareReport same =
      out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0);
  CHECK(same.equal);
  REQUIRE(same.fields.size() == 3);
  CHECK(same.fields[1].label == "first_00000100.h5 vs second_00000100.h5: ");

  // A second snapshot of iteration 100 (another case's) makes the directory ambiguous.
  out::RunOutput other(dir_b.path().string(), "third", grid, "c");
  other.snapshot<double>(100, 100, {{"u", u.data()}});
  CHECK_THROWS_WITH_AS(out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0),
                       doctest::Contains("two snapshots of iteration 100"), out::OutputError);
}
