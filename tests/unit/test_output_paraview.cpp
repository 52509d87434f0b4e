// Writes the data set that tools/paraview_check.py verifies (docs/output.md): u = x + 10y + 100z
// on 2D and 3D grids with a non-zero origin and unequal spacings. Run with
// FDSOLVE_KEEP_TEST_OUTPUT=1 to keep the directories and open them in ParaView.
#include <doctest/doctest.h>

#include "run_output.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;

namespace {

// The field whose value names its node's coordinates: x + 10y + 100z (+ 1000 per snapshot).
template <typename T>
std::vector<T> coordinate_field(const out::GridMeta& grid, double offset) {
  std::vector<T> values;
  for (std::int64_t k = 0; k < grid.points[2]; ++k) {
    for (std::int64_t j = 0; j < grid.points[1]; ++j) {
      for (std::int64_t i = 0; i < grid.points[0]; ++i) {
        const double x = grid.origin[0] + static_cast<double>(i) * grid.spacing[0];
        const double y = grid.origin[1] + static_cast<double>(j) * grid.spacing[1];
        const double z = grid.origin[2] + static_cast<double>(k) * grid.spacing[2];
        values.push_back(static_cast<T>(x + 10 * y + 100 * z + offset));
      }
    }
  }
  return values;
}

template <typename T>
void write_demo(const out::test::TempDir& dir, const out::GridMeta& grid) {
  out::RunOutput run(dir.path().string(), "demo", grid, "name: demo\n");
  for (int step = 0; step < 2; ++step) {
    const std::vector<T> u = coordinate_field<T>(grid, 1000.0 * step);
    run.snapshot<T>(10 * step, 0.5 * step, {{"u", u.data()}});
  }
  MESSAGE("ParaView check data: " << (dir / "demo.xmf"));
  // The node (x 1, y 2, z last) read back has the value its coordinates predict.
  const out::SnapshotData data = out::read_snapshot(run.snapshots().at(1));
  const std::int64_t nx = grid.points[0], ny = grid.points[1], k = grid.points[2] - 1;
  const double x = grid.origin[0] + grid.spacing[0];
  const double y = grid.origin[1] + 2 * grid.spacing[1];
  const double z = grid.origin[2] + static_cast<double>(k) * grid.spacing[2];
  CHECK(data.fields.at(0).at(static_cast<size_t>((k * ny + 2) * nx + 1)) ==
        doctest::Approx(x + 10 * y + 100 * z + 1000));
}

}  // namespace

TEST_CASE("output: ParaView check data, 2D double and 3D float") {
  out::test::TempDir dir_2d;
  out::test::TempDir dir_3d;
  // 2D: nx 5, ny 3, origin (1.5, -2), spacing (0.25, 0.5): x 1.5..2.5, y -2..-1.
  write_demo<double>(dir_2d, out::test::make_grid(2, 5, 3));
  // 3D: nx 4, ny 3, nz 6, origin (1.5, -2, 0.5), spacing (0.25, 0.5, 2):
  // x 1.5..2.25, y -2..-1, z 0.5..10.5.
  write_demo<float>(dir_3d, out::test::make_grid(3, 4, 3, 6));
}
