// The vector field flux in snapshots: a trailing component axis of the grid's dims, read back
// bit for bit (whole and over a box of nodes), and a Vector attribute in the .xmf whose
// Dimensions add the component count. References: the values written, hand-written XML.
#include <doctest/doctest.h>

#include <cstring>

#include "snapshot.hpp"
#include "test_output_support.hpp"
#include "xdmf.hpp"

namespace out = fdsolve::output;
using out::test::TempDir;

namespace {

out::GridMeta grid_of(int dims) {
  out::GridMeta g;
  g.dims = dims;
  g.points = dims == 2 ? std::array<std::int64_t, 3>{5, 4, 1} : std::array<std::int64_t, 3>{4, 3, 2};
  return g;
}

}  // namespace

TEST_CASE("output: flux has one component per axis, other fields one") {
  CHECK(out::field_components("flux", 2) == 2);
  CHECK(out::field_components("flux", 3) == 3);
  CHECK(out::field_components("u", 3) == 1);
  CHECK(out::field_components("coefficient", 2) == 1);
}

TEST_CASE("output: a vector field round-trips with its component axis, whole and over a box") {
  for (const int dims : {2, 3}) {
    TempDir dir;
    const out::GridMeta grid = grid_of(dims);
    const std::size_t nodes = out::test::node_count(grid);
    const std::vector<double> u = out::test::random_field<double>(nodes, 3);
    const std::vector<double> flux =
        out::test::random_field<double>(nodes * static_cast<std::size_t>(dims), 4);
    out::SnapshotInfo info;
    info.grid = grid;
    const std::string path = dir / "v_00000001.h5";
    out::write_snapshot<double>(path, info, {{"u", u.data()}, {"flux", flux.data()}});
    const out::SnapshotData back = out::read_snapshot(path);
    REQUIRE(back.names == std::vector<std::string>{"flux", "u"});
    CHECK(back.info.grid.points == grid.points);
    REQUIRE(back.fields[0].size() == flux.size());
    CHECK(std::memcmp(back.fields[0].data(), flux.data(), flux.size() * sizeof(double)) == 0);
    // Nodes 1..2 along x, all along the others: every component of each.
    out::Hyperslab box;
    box.offset = {1, 0, 0};
    box.count = {2, grid.points[1], grid.points[2]};
    const out::SnapshotData part = out::read_snapshot(path, box);
    REQUIRE(part.fields[0].size() == static_cast<std::size_t>(2 * grid.points[1] * grid.points[2] * dims));
    std::size_t at = 0;
    for (std::int64_t k = 0; k < grid.points[2]; ++k)
      for (std::int64_t j = 0; j < grid.points[1]; ++j)
        for (std::int64_t i = 1; i < 3; ++i)
          for (int a = 0; a < dims; ++a) {
            const std::size_t node =
                static_cast<std::size_t>((k * grid.points[1] + j) * grid.points[0] + i);
            CHECK(part.fields[0][at++] == flux[node * static_cast<std::size_t>(dims) + a]);
          }
  }
}

TEST_CASE("output: xdmf lists flux as a Vector attribute with its components") {
  out::GridMeta g = grid_of(2);
  const std::string xml =
      out::make_xdmf("v", g, {out::XdmfEntry{"v_00000001.h5", 1, 0.0, {"u", "flux"}, 4}});
  CHECK(xml.find("<Attribute Name=\"u\" AttributeType=\"Scalar\" Center=\"Node\">\n"
                 "          <DataItem Format=\"HDF\" NumberType=\"Float\" Precision=\"4\" "
                 "Dimensions=\"1 4 5\">v_00000001.h5:/u</DataItem>") != std::string::npos);
  CHECK(xml.find("<Attribute Name=\"flux\" AttributeType=\"Vector\" Center=\"Node\">\n"
                 "          <DataItem Format=\"HDF\" NumberType=\"Float\" Precision=\"4\" "
                 "Dimensions=\"1 4 5 2\">v_00000001.h5:/flux</DataItem>") != std::string::npos);
  const std::string xml3 = out::make_xdmf(
      "v", grid_of(3), {out::XdmfEntry{"v_00000001.h5", 1, 0.0, {"flux"}, 8}});
  CHECK(xml3.find("Dimensions=\"2 3 4 3\">v_00000001.h5:/flux") != std::string::npos);
}
