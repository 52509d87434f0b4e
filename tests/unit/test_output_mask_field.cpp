// The held-node mask `fixed` in snapshots: stored as one unsigned byte a node in every format
// (the run's precision, float snapshots, gzip), read back as the 0/1 values written, listed in
// the .xmf as UChar, and not counted as the snapshot's precision. References: the values
// written, the dataset's type asked of HDF5 directly, hand-written XML.
#include <doctest/doctest.h>
#include <hdf5.h>

#include <cstdint>
#include <filesystem>

#include "output_error.hpp"
#include "snapshot.hpp"
#include "test_output_support.hpp"
#include "xdmf.hpp"

namespace out = fdsolve::output;
using out::test::TempDir;

namespace {

/// The stored type of dataset `name`: its class and size in bytes.
std::pair<H5T_class_t, std::size_t> stored_type(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t type = H5Dget_type(dataset);
  const std::pair<H5T_class_t, std::size_t> found{H5Tget_class(type), H5Tget_size(type)};
  H5Tclose(type);
  H5Dclose(dataset);
  H5Fclose(file);
  return found;
}

}  // namespace

TEST_CASE("output: the fixed mask is stored as bytes and reads back as its 0/1 values") {
  CHECK(out::stored_as_mask("fixed"));
  CHECK_FALSE(out::stored_as_mask("u"));
  CHECK_FALSE(out::stored_as_mask("coefficient"));
  TempDir dir;
  for (const out::GridMeta& grid :
       {out::test::make_grid(2, 9, 7), out::test::make_grid(3, 5, 4, 3)}) {
    const std::size_t count = out::test::node_count(grid);
    const std::vector<double> u = out::test::random_field<double>(count, 5);
    std::vector<std::uint8_t> mask(count);
    for (std::size_t i = 0; i < count; ++i) mask[i] = u[i] > 0.3 ? 1 : 0;
    for (const out::SnapshotFormat format :
         {out::SnapshotFormat{}, out::SnapshotFormat{true, 0}, out::SnapshotFormat{false, 4}}) {
      out::SnapshotInfo info;
      info.grid = grid;
      info.format = format;
      const std::string path = dir / ("mask_" + std::to_string(grid.dims) +
                                      std::to_string(format.as_float) +
                                      std::to_string(format.gzip_level) + ".h5");
      out::write_snapshot<double>(
          path, info, {{"u", u.data()}, out::FieldRef<double>::of_mask("fixed", mask.data())});
      const auto [kind, bytes] = stored_type(path, "fixed");
      CHECK(kind == H5T_INTEGER);
      CHECK(bytes == 1);
      CHECK(stored_type(path, "u").second == (format.as_float ? 4u : 8u));
      const out::SnapshotData back = out::read_snapshot(path);
      // The precision is u's: the mask's bytes do not make a double snapshot "not float" nor
      // a float one anything else.
      CHECK(back.single_precision == format.as_float);
      REQUIRE(back.names.size() == 2);
      const std::size_t at = back.names[0] == "fixed" ? 0 : 1;
      REQUIRE(back.names[at] == "fixed");
      REQUIRE(back.fields[at].size() == count);
      for (std::size_t i = 0; i < count; ++i) CHECK(back.fields[at][i] == double(mask[i]));
    }
  }
}

TEST_CASE("output: a mask field without its bytes, or bytes for a field that is no mask, fail") {
  TempDir dir;
  const out::GridMeta grid = out::test::make_grid(2, 4, 3);
  const std::vector<double> u(out::test::node_count(grid), 1.0);
  const std::vector<std::uint8_t> mask(u.size(), 1);
  out::SnapshotInfo info;
  info.grid = grid;
  CHECK_THROWS_AS(out::write_snapshot<double>(dir / "a.h5", info, {{"fixed", u.data()}}),
                  out::OutputError);
  CHECK_THROWS_AS(out::write_snapshot<double>(
                      dir / "b.h5", info, {out::FieldRef<double>::of_mask("u", mask.data())}),
                  out::OutputError);
  CHECK_FALSE(std::filesystem::exists(dir / "a.h5"));
  CHECK_FALSE(std::filesystem::exists(dir / "b.h5"));
}

TEST_CASE("output: xdmf lists the fixed mask as UChar of one byte beside a float field") {
  out::GridMeta g;
  g.dims = 2;
  g.points = {5, 4, 1};
  const std::string xml =
      out::make_xdmf("m", g, {out::XdmfEntry{"m_00000001.h5", 1, 0.0, {"u", "fixed"}, 8}});
  CHECK(xml.find("<Attribute Name=\"u\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                 "          <DataItem Format=\"HDF\" NumberType=\"Float\" Precision=\"8\" "
                 "Dimensions=\"1 4 5\">m_00000001.h5:/u</DataItem>") != std::string::npos);
  CHECK(xml.find("<Attribute Name=\"fixed\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                 "          <DataItem Format=\"HDF\" NumberType=\"UChar\" Precision=\"1\" "
                 "Dimensions=\"1 4 5\">m_00000001.h5:/fixed</DataItem>") != std::string::npos);
}
