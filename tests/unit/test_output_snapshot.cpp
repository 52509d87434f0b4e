// HDF5 snapshots: bit-exact round trips in float and double, 2D and 3D, with the grid
// attributes and /config, and failures reported as OutputError.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <limits>

#include "output_error.hpp"
#include "snapshot.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
using out::test::TempDir;

namespace {

const char* const config_text =
    "name: \"plate\"\ngrid:\n  points: [7, 5]\n# unicode: \xc3\xa9\xe2\x88\x87\n";

template <typename T>
void check_round_trip(const out::GridMeta& grid) {
  TempDir dir;
  const std::size_t count = out::test::node_count(grid);
  std::vector<T> u = out::test::random_field<T>(count, 11);
  std::vector<T> update = out::test::random_field<T>(count, 12);
  u[1] = std::numeric_limits<T>::quiet_NaN();  // diverged runs write non-finite values
  update[2] = -std::numeric_limits<T>::infinity();
  update[3] = std::numeric_limits<T>::denorm_min();

  out::SnapshotInfo info;
  info.iteration = (std::int64_t{1} << 40) + 3;  // needs all 64 bits
  info.time = 0.1 + 0.2;
  info.grid = grid;
  info.config_yaml = config_text;
  const std::string path = dir / "case_00000003.h5";
  out::write_snapshot<T>(path, info, {{"u", u.data()}, {"update", update.data()}});

  const out::SnapshotData back = out::read_snapshot(path);
  CHECK(back.single_precision == std::is_same_v<T, float>);
  CHECK(back.info.iteration == info.iteration);
  CHECK(back.info.time == info.time);
  CHECK(back.info.config_yaml == config_text);
  CHECK(back.info.grid.dims == grid.dims);
  CHECK(back.info.grid.points == grid.points);
  for (int axis = 0; axis < grid.dims; ++axis) {
    CHECK(back.info.grid.origin[axis] == grid.origin[axis]);
    CHECK(back.info.grid.spacing[axis] == grid.spacing[axis]);
  }
  REQUIRE(back.names == std::vector<std::string>{"u", "update"});
  REQUIRE(back.fields.size() == 2);
  for (std::size_t f = 0; f < 2; ++f) {
    const std::vector<T>& original = f == 0 ? u : update;
    REQUIRE(back.fields[f].size() == count);
    std::vector<T> narrowed(count);
    for (std::size_t i = 0; i < count; ++i) narrowed[i] = static_cast<T>(back.fields[f][i]);
    // Bitwise, so NaN and signed zeros count too.
    CHECK(std::memcmp(narrowed.data(), original.data(), count * sizeof(T)) == 0);
  }
}

// h5dump is an independent reader: the dataset must be [ny][nx] / [nz][ny][nx] on disk.
std::string h5dump_header(const std::string& path) {
  if (std::system("command -v h5dump > /dev/null 2>&1") != 0) return {};
  const std::string listing = path + ".header.txt";
  const std::string command = "h5dump -H -d /u '" + path + "' > '" + listing + "' 2>&1";
  if (std::system(command.c_str()) != 0) return {};
  return out::test::read_text(listing);
}

}  // namespace

TEST_CASE("output: snapshot round trip is bit-exact in 2D and 3D, float and double") {
  SUBCASE("2D float") { check_round_trip<float>(out::test::make_grid(2, 7, 5)); }
  SUBCASE("2D double") { check_round_trip<double>(out::test::make_grid(2, 7, 5)); }
  SUBCASE("3D float") { check_round_trip<float>(out::test::make_grid(3, 6, 4, 3)); }
  SUBCASE("3D double") { check_round_trip<double>(out::test::make_grid(3, 6, 4, 3)); }
  SUBCASE("single row and column") { check_round_trip<double>(out::test::make_grid(2, 1, 9)); }
}

TEST_CASE("output: snapshot datasets are stored slowest axis first") {
  TempDir dir;
  for (const out::GridMeta& grid :
       {out::test::make_grid(2, 7, 5), out::test::make_grid(3, 6, 4, 3)}) {
    const std::vector<float> u(out::test::node_count(grid), 1.0f);
    const std::string path = dir / ("dims" + std::to_string(grid.dims) + ".h5");
    out::write_snapshot<float>(path, {0, 0, grid, "", {}, {}}, {{"u", u.data()}});
    const std::string header = h5dump_header(path);
    if (header.empty()) {
      MESSAGE("h5dump not available: layout checked by tools/paraview_check.py only");
      continue;
    }
    CHECK(header.find("H5T_IEEE_F32LE") != std::string::npos);
    const char* shape = grid.dims == 2 ? "( 5, 7 )" : "( 3, 4, 6 )";
    CHECK_MESSAGE(header.find(shape) != std::string::npos, header);
  }
}

TEST_CASE("output: snapshot failures are OutputError naming the file") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 4, 3);
  const std::vector<double> u(out::test::node_count(grid), 0.0);
  const out::SnapshotInfo info{0, 0, grid, "name: x\n", {}, {}};

  const std::string missing_dir = dir / "no/such/dir/x_00000000.h5";
  CHECK_THROWS_WITH_AS(out::write_snapshot<double>(missing_dir, info, {{"u", u.data()}}),
                       doctest::Contains(missing_dir.c_str()), out::OutputError);
  CHECK_THROWS_AS(out::write_snapshot<double>(dir / "bad.h5", info, {{"a/b", u.data()}}),
                  out::OutputError);
  CHECK_THROWS_AS(out::write_snapshot<double>(dir / "bad.h5", info, {{"u", nullptr}}),
                  out::OutputError);
  CHECK_FALSE(std::filesystem::exists(dir / "bad.h5"));

  CHECK_THROWS_WITH_AS(out::read_snapshot(dir / "absent.h5"), doctest::Contains("absent.h5"),
                       out::OutputError);
  std::FILE* text = std::fopen((dir / "text.h5").c_str(), "w");
  REQUIRE(text != nullptr);
  std::fputs("not an HDF5 file\n", text);
  std::fclose(text);
  CHECK_THROWS_AS(out::read_snapshot(dir / "text.h5"), out::OutputError);
}
