// Snapshots begun ahead (RunOutput::write_ahead): the fields written ahead and the state's
// fields land in one file per snapshot, equal to a snapshot written in one go, every snapshot
// of a run carries them, the .xmf lists them in the order given, and no temporary file
// remains, whether the begun file was taken or not. References: the values written,
// write_snapshot's own file.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>

#include "output_error.hpp"
#include "run_output.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
namespace fs = std::filesystem;
using out::test::temp_files;
using out::test::TempDir;

namespace {

/// The field `name` of a snapshot read back.
std::vector<double> field_of(const out::SnapshotData& s, const std::string& name) {
  for (std::size_t i = 0; i < s.names.size(); ++i)
    if (s.names[i] == name) return s.fields[i];
  FAIL("no field " << name);
  return {};
}

}  // namespace

TEST_CASE("output: fields written ahead join each snapshot's state in one file") {
  for (const out::SnapshotFormat format : {out::SnapshotFormat{}, out::SnapshotFormat{true, 0},
                                           out::SnapshotFormat{false, 3}}) {
    TempDir dir;
    const out::GridMeta grid = out::test::make_grid(3, 6, 5, 4);
    const std::size_t count = out::test::node_count(grid);
    auto coefficient = std::make_shared<std::vector<double>>(out::test::random_field<double>(count, 7));
    auto mask = std::make_shared<std::vector<std::uint8_t>>(count);
    for (std::size_t i = 0; i < count; ++i) (*mask)[i] = (*coefficient)[i] > 0.5;
    out::RunOutput run(dir.path().string(), "a", grid, "name: a\n");
    run.set_format(format);
    run.write_ahead<double>({{"coefficient", coefficient->data()},
                             out::FieldRef<double>::of_mask("fixed", mask->data())},
                            std::make_shared<std::pair<decltype(coefficient), decltype(mask)>>(
                                coefficient, mask),
                            {"coefficient", "u", "fixed"});
    CHECK(run.writes_ahead("coefficient"));
    CHECK(run.writes_ahead("fixed"));
    CHECK_FALSE(run.writes_ahead("u"));
    const std::vector<double> u0 = out::test::random_field<double>(count, 8);
    const std::vector<double> u1 = out::test::random_field<double>(count, 9);
    run.snapshot<double>(0, 0.0, {{"u", u0.data()}});
    run.begin_next_snapshot();
    run.snapshot<double>(4, 1.0, {{"u", u1.data()}});
    // The reference: the same fields in one write_snapshot.
    out::SnapshotInfo info;
    info.iteration = 4;
    info.time = 1.0;
    info.grid = grid;
    info.config_yaml = "name: a\n";
    info.format = format;
    out::write_snapshot<double>(dir / "whole.h5", info,
                                {{"u", u1.data()},
                                 {"coefficient", coefficient->data()},
                                 out::FieldRef<double>::of_mask("fixed", mask->data())});
    const out::SnapshotData whole = out::read_snapshot(dir / "whole.h5");
    const out::SnapshotData first = out::read_snapshot(dir / "a_00000000.h5");
    const out::SnapshotData last = out::read_snapshot(dir / "a_00000004.h5");
    CHECK(last.names == whole.names);
    CHECK(last.fields == whole.fields);
    CHECK(last.info.iteration == 4);
    CHECK(last.info.time == 1.0);
    CHECK(last.info.config_yaml == "name: a\n");
    CHECK(last.single_precision == format.as_float);
    CHECK(field_of(first, "coefficient") == field_of(whole, "coefficient"));
    CHECK(field_of(first, "fixed") == field_of(whole, "fixed"));
    std::vector<double> stored_u0 = u0;  // as the format stores it
    if (format.as_float)
      for (double& v : stored_u0) v = static_cast<double>(static_cast<float>(v));
    CHECK(field_of(first, "u") == stored_u0);
    CHECK(first.info.iteration == 0);
    const std::string xmf = out::test::read_text(dir.path() / "a.xmf");
    for (const char* file : {"a_00000000.h5", "a_00000004.h5"})
      for (const char* name : {"u", "coefficient", "fixed"})
        CHECK_MESSAGE(xmf.find(std::string(file) + ":/" + name) != std::string::npos, file, name);
    // Listed in the order given, the state's field between the two written ahead.
    const std::size_t at_u = xmf.find("a_00000004.h5:/u");
    CHECK(xmf.find("a_00000004.h5:/coefficient") < at_u);
    CHECK(at_u < xmf.find("a_00000004.h5:/fixed"));
    CHECK(temp_files(dir.path()).empty());
  }
}

TEST_CASE("output: a file begun ahead that no snapshot takes is removed") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 9, 8);
  auto coefficient = std::make_shared<std::vector<double>>(out::test::node_count(grid), 3.0);
  {
    out::RunOutput run(dir.path().string(), "b", grid, "");
    run.write_ahead<double>({{"coefficient", coefficient->data()}}, coefficient);
    run.begin_next_snapshot();  // begun already: nothing more
  }
  CHECK(temp_files(dir.path()).empty());
  CHECK_FALSE(fs::exists(dir / "b.xmf"));
}

TEST_CASE("output: a snapshot whose begun file failed throws OutputError and lists nothing") {
  TempDir dir;
  const fs::path run_dir = dir.path() / "gone";
  const out::GridMeta grid = out::test::make_grid(2, 4, 3);
  auto coefficient = std::make_shared<std::vector<double>>(out::test::node_count(grid), 1.0);
  out::RunOutput run(run_dir.string(), "g", grid, "");
  fs::remove_all(run_dir);  // before the begun file is created, or under it: both fail
  run.write_ahead<double>({{"coefficient", coefficient->data()}}, coefficient);
  const std::vector<double> u(coefficient->size(), 0.0);
  CHECK_THROWS_AS(run.snapshot<double>(0, 0, {{"u", u.data()}}), out::OutputError);
  CHECK(run.snapshots().empty());
  CHECK_FALSE(fs::exists(run_dir));
}
