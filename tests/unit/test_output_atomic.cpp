// Crash safety of every output file: temporaries never remain, and a failed write leaves the
// previous file (or none) in place, never a partial one.
#include <doctest/doctest.h>

#include <fstream>

#include "atomic_file.hpp"
#include "output_error.hpp"
#include "run_output.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
namespace fs = std::filesystem;
using out::test::read_text;
using out::test::temp_files;
using out::test::TempDir;

TEST_CASE("output: a successful run leaves no temporary files") {
  TempDir dir;
  const fs::path run_dir = dir.path() / "nested" / "run";  // created with its parents
  out::RunOutput run(run_dir.string(), "ok", out::test::make_grid(2, 4, 3), "name: ok\n");
  const std::vector<double> u(12, 2.0);
  run.snapshot<double>(0, 0, {{"u", u.data()}});
  run.snapshot<double>(5, 0, {{"u", u.data()}});
  run.add_history({});
  run.flush_history();
  run.write_summary({});
  CHECK(temp_files(run_dir).empty());
  for (const char* name :
       {"ok.xmf", "ok_00000000.h5", "ok_00000005.h5", "history.csv", "summary.json"}) {
    CHECK_MESSAGE(fs::is_regular_file(run_dir / name), name);
  }
}

TEST_CASE("output: a failing writer keeps the old file and removes its temporary") {
  TempDir dir;
  const fs::path target = dir.path() / "data.txt";
  out::write_text_atomic(target, "old content\n");
  CHECK_THROWS_AS(out::write_file_atomic(target,
                                         [](const fs::path& temp) {
                                           std::ofstream(temp) << "partial";
                                           throw out::OutputError("disk full (simulated)");
                                         }),
                  out::OutputError);
  CHECK(read_text(target) == "old content\n");
  CHECK(temp_files(dir.path()).empty());
  CHECK(out::temp_path_for(target).parent_path() == target.parent_path());
}

TEST_CASE("output: an HDF5 failure mid-file keeps the previous snapshot intact") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 4, 3);
  const std::vector<double> old_values(12, 1.0);
  const std::vector<double> new_values(12, 2.0);
  const std::string path = dir / "s_00000000.h5";
  out::write_snapshot<double>(path, {0, 0, grid, "", {}, {}}, {{"u", old_values.data()}});
  // The second dataset named u cannot be created: the file is abandoned half written.
  CHECK_THROWS_WITH_AS(
      out::write_snapshot<double>(path, {0, 0, grid, "", {}, {}},
                                  {{"u", new_values.data()}, {"u", new_values.data()}}),
      doctest::Contains("/u"), out::OutputError);
  CHECK(temp_files(dir.path()).empty());
  CHECK(out::read_snapshot(path).fields.at(0) == old_values);
}

TEST_CASE("output: writes into a removed directory throw OutputError and create nothing") {
  TempDir dir;
  const fs::path run_dir = dir.path() / "gone";
  out::RunOutput run(run_dir.string(), "g", out::test::make_grid(3, 2, 2, 2), "");
  fs::remove_all(run_dir);
  const std::vector<float> u(8, 0.0f);
  CHECK_THROWS_WITH_AS(run.snapshot<float>(0, 0, {{"u", u.data()}}),
                       doctest::Contains("g_00000000.h5"), out::OutputError);
  CHECK(run.snapshots().empty());  // the .xmf may never list a snapshot that failed
  CHECK_THROWS_AS(run.flush_history(), out::OutputError);
  CHECK_THROWS_WITH_AS(run.write_summary({}), doctest::Contains("summary.json"), out::OutputError);
  CHECK_FALSE(fs::exists(run_dir));
}

TEST_CASE("output: the output directory must be creatable") {
  TempDir dir;
  const fs::path file = dir.path() / "a_file";
  out::write_text_atomic(file, "x");
  const std::string below_file = (file / "run").string();
  CHECK_THROWS_WITH_AS(out::RunOutput(below_file, "r", out::test::make_grid(2, 2, 2), ""),
                       doctest::Contains(below_file.c_str()), out::OutputError);
  CHECK_THROWS_AS(out::RunOutput(file.string(), "r", out::test::make_grid(2, 2, 2), ""),
                  out::OutputError);
}
