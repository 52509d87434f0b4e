// problem.fixed regions that hold no node: an input error naming problem.fixed[i].where and why
// (zero at every node, only on Dirichlet faces, only on nodes an earlier region holds) when the
// region is a formula; a warning when it is a mask file, which is data made elsewhere.
#include <doctest/doctest.h>

#include "case_reader.hpp"
#include "operator/medium.hpp"
#include "test_output_support.hpp"

using namespace fdsolve;

namespace {

/// 5 x 5 nodes on the unit square (h = 0.25), Dirichlet faces, one or two held regions.
const std::string kGrid = "grid: {points: [5, 5], extent: [1, 1]}\nproblem:\n  fixed:\n";

std::string medium_error(const std::string& yaml) {
  try {
    (void)op::resolve_medium(parse_case(yaml, "case.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("held regions: a formula region that holds no node is an input error saying why") {
  // A disc of radius 0.03 around (0.4, 0.4): the nearest node, (0.5, 0.5), is 0.14 away.
  CHECK(medium_error(kGrid + "    - {where: \"(x-0.4)^2 + (y-0.4)^2 < 0.001\", value: 1}\n") ==
        "case.yaml:4:15: problem.fixed[0].where: the region holds no node: it is zero at every "
        "node (a region narrower than the spacing h = [0.25, 0.25] can lie between the nodes); "
        "widen the region or remove it");
  // Off the grid altogether.
  CHECK(medium_error(kGrid + "    - {where: \"x > 2\", value: 1}\n")
            .starts_with("case.yaml:4:15: problem.fixed[0].where: the region holds no node: it is "
                         "zero at every node"));
  // x = 0 only: the x_min face, whose Dirichlet value holds those nodes.
  CHECK(medium_error(kGrid + "    - {where: \"x < 0.1\", value: 1}\n") ==
        "case.yaml:4:15: problem.fixed[0].where: the region holds no node: it is non-zero only "
        "on Dirichlet faces, whose nodes hold the face's value; widen the region or remove it");
  // The second region lies inside the first: its 9 nodes (x, y in [0.25, 0.75]) are taken.
  CHECK(medium_error(kGrid +
                     "    - {where: \"x > 0.2 && x < 0.8 && y > 0.2 && y < 0.8\", value: 1}\n"
                     "    - {where: \"x > 0.2 && x < 0.8 && y > 0.2 && y < 0.8\", value: 2}\n") ==
        "case.yaml:5:15: problem.fixed[1].where: the region holds no node: it marks 9 nodes that "
        "earlier regions hold already (the first region that holds a node gives its value); "
        "widen the region or remove it");
  // The second region marks the columns x = 0 and x = 0.25: 7 nodes on Dirichlet faces and the
  // 3 interior ones of x = 0.25, which the first region holds.
  CHECK(medium_error(kGrid + "    - {where: \"abs(x - 0.25) < 0.1\", value: 1}\n" +
                     "    - {where: \"x < 0.3\", value: 2}\n") ==
        "case.yaml:5:15: problem.fixed[1].where: the region holds no node: it marks 10 nodes, "
        "each on a Dirichlet face or held by an earlier region (the first region that holds a "
        "node gives its value); widen the region or remove it");
}

TEST_CASE("held regions: a region that holds a node is accepted, and an empty mask file warns") {
  const op::Medium held = op::resolve_medium(
      parse_case(kGrid + "    - {where: \"abs(x - 0.5) < 0.1 && abs(y - 0.5) < 0.1\", value: 1}\n",
                 "case.yaml"));
  CHECK(held.held_count == 1);  // the centre node alone

  output::test::TempDir dir;
  const output::GridMeta grid = output::test::make_grid(2, 5, 5);
  const std::vector<double> zeros(25, 0.0);
  output::SnapshotInfo info;
  info.grid = grid;
  output::write_snapshot<double>(dir / "mask.h5", info, {{"mask", zeros.data()}});
  std::ofstream(dir.path() / "case.yaml")
      << kGrid + "    - {where: {file: mask.h5, dataset: /mask}, value: 1}\n";
  const op::Medium none = op::resolve_medium(read_case_file(dir / "case.yaml"));
  CHECK(none.held_count == 0);
  CHECK_FALSE(none.holds());
}
