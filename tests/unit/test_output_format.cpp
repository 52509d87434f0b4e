// Snapshot storage formats (output.precision, output.compression): float snapshots of a double
// run read back within float rounding, gzip-compressed ones exactly, and the default stays the
// run's precision, uncompressed (checkpoints rely on it to resume bit-identically).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "snapshot.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
using out::test::TempDir;

namespace {

out::SnapshotData write_and_read(const TempDir& dir, const out::GridMeta& grid,
                                 const std::vector<double>& u, out::SnapshotFormat format) {
  out::SnapshotInfo info;
  info.iteration = 7;
  info.grid = grid;
  info.config_yaml = "name: fmt\n";
  info.format = format;
  const std::string path =
      dir / ("fmt_" + std::to_string(format.as_float) + std::to_string(format.gzip_level) + ".h5");
  out::write_snapshot<double>(path, info, {{"u", u.data()}});
  return out::read_snapshot(path);
}

}  // namespace

TEST_CASE("output: float snapshots of a double field read back within float rounding") {
  TempDir dir;
  for (const out::GridMeta& grid : {out::test::make_grid(2, 9, 7), out::test::make_grid(3, 5, 4, 3)}) {
    const std::size_t count = out::test::node_count(grid);
    const std::vector<double> u = out::test::random_field<double>(count, 21);
    for (const int level : {0, 6}) {
      const out::SnapshotData back = write_and_read(dir, grid, u, {true, level});
      CHECK(back.single_precision);
      REQUIRE(back.fields.size() == 1);
      REQUIRE(back.fields[0].size() == count);
      for (std::size_t i = 0; i < count; ++i) {
        // Round to nearest: the float is the double's own rounding, bit for bit.
        CHECK(back.fields[0][i] == static_cast<double>(static_cast<float>(u[i])));
      }
    }
  }
}

TEST_CASE("output: gzip snapshots read back exactly and are smaller on smooth fields") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(3, 33, 17, 9);
  const std::size_t count = out::test::node_count(grid);
  std::vector<double> u(count);
  for (std::size_t i = 0; i < count; ++i) u[i] = std::sin(0.001 * static_cast<double>(i));
  const out::SnapshotData plain = write_and_read(dir, grid, u, {});
  const out::SnapshotData packed = write_and_read(dir, grid, u, {false, 9});
  CHECK_FALSE(packed.single_precision);
  REQUIRE(packed.fields.size() == 1);
  REQUIRE(packed.fields[0].size() == count);
  CHECK(std::memcmp(packed.fields[0].data(), u.data(), count * sizeof(double)) == 0);
  CHECK(std::memcmp(plain.fields[0].data(), u.data(), count * sizeof(double)) == 0);
  CHECK(std::filesystem::file_size(dir / "fmt_09.h5") < std::filesystem::file_size(dir / "fmt_00.h5"));
}
