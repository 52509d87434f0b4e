// compare_paths: equal files, differences beyond tolerance, NaN, shape and metadata mismatches,
// and directories with a snapshot missing on one side.
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

std::string write(const TempDir& dir, const std::string& name, const out::GridMeta& grid,
                  const std::vector<double>& u, std::int64_t iteration = 0) {
  const std::string path = dir / name;
  out::write_snapshot<double>(path, {iteration, 0.5, grid, "name: c\n"}, {{"u", u.data()}});
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
  CHECK(mentions(differ, "(x 2, y 3, z 1)"));
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
  out::write_snapshot<double>(d, {0, 0.5, out::test::make_grid(3, 5, 4, 3), ""},
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

  run_a.snapshot<float>(20, 2, {{"u", u.data()}});
  const out::CompareReport report =
      out::compare_paths(dir_a.path().string(), dir_b.path().string(), 0, 0);
  CHECK_FALSE(report.equal);
  REQUIRE(report.differences.size() == 1);
  CHECK(mentions(report, "run_00000020.h5: only in " + dir_a.path().string()));
}
