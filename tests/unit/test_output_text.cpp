// The text outputs of RunOutput: the XDMF index (axis order, times, references, precision),
// history.csv (round-trip numbers) and summary.json (escaping, null for non-finite numbers).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

#include "run_output.hpp"
#include "test_output_support.hpp"

namespace out = fdsolve::output;
using out::test::count_occurrences;
using out::test::read_text;
using out::test::TempDir;

TEST_CASE("output: xdmf lists complete snapshots with x-y-z reversed into XDMF order") {
  TempDir dir;
  SUBCASE("2D is one z layer of a 3D mesh") {
    // nx=5, ny=3; origin (1.5, -2); spacing (0.25, 0.5): see make_grid.
    out::RunOutput run(dir.path().string(), "plate", out::test::make_grid(2, 5, 3), "");
    const std::vector<float> u(15, 1.0f);
    run.snapshot<float>(0, 0.0, {{"u", u.data()}});
    std::string xmf = read_text(dir.path() / "plate.xmf");
    CHECK(count_occurrences(xmf, "GridType=\"Uniform\"") == 1);
    run.snapshot<float>(10, 0.125, {{"u", u.data()}, {"update", u.data()}});
    run.snapshot<float>(10, 0.125, {{"u", u.data()}, {"update", u.data()}});  // replaces
    xmf = read_text(dir.path() / "plate.xmf");
    CHECK(xmf.find("GridType=\"Collection\" CollectionType=\"Temporal\"") != std::string::npos);
    CHECK(count_occurrences(xmf, "GridType=\"Uniform\"") == 2);
    CHECK(count_occurrences(xmf, "TopologyType=\"3DCoRectMesh\" Dimensions=\"1 3 5\"") == 2);
    CHECK(count_occurrences(xmf, "GeometryType=\"ORIGIN_DXDYDZ\"") == 2);
    CHECK(count_occurrences(xmf, ">0 -2 1.5</DataItem>") == 2);    // origin z y x
    CHECK(count_occurrences(xmf, ">1 0.5 0.25</DataItem>") == 2);  // spacing z y x
    CHECK(xmf.find("<Time Value=\"0\"/>") < xmf.find("<Time Value=\"0.125\"/>"));
    CHECK(count_occurrences(xmf, ">plate_00000000.h5:/u</DataItem>") == 1);
    CHECK(count_occurrences(xmf, ">plate_00000010.h5:/u</DataItem>") == 1);
    CHECK(count_occurrences(xmf, ">plate_00000010.h5:/update</DataItem>") == 1);
    CHECK(count_occurrences(xmf, "Precision=\"4\" Dimensions=\"1 3 5\">plate_") == 3);
    CHECK(xmf.find(dir.path().string()) == std::string::npos);  // relative references only
    CHECK(run.snapshots().size() == 2);
  }
  SUBCASE("3D double") {
    // nx=4, ny=3, nz=6; origin (1.5, -2, 0.5); spacing (0.25, 0.5, 2).
    out::RunOutput run(dir.path().string(), "cube", out::test::make_grid(3, 4, 3, 6), "");
    const std::vector<double> u(72, 1.0);
    run.snapshot<double>(7, 1.0 / 3.0, {{"u", u.data()}});
    const std::string xmf = read_text(dir.path() / "cube.xmf");
    CHECK(xmf.find("TopologyType=\"3DCoRectMesh\" Dimensions=\"6 3 4\"") != std::string::npos);
    CHECK(xmf.find(">0.5 -2 1.5</DataItem>") != std::string::npos);
    CHECK(xmf.find(">2 0.5 0.25</DataItem>") != std::string::npos);
    CHECK(xmf.find("<Time Value=\"0.33333333333333331\"/>") != std::string::npos);
    CHECK(xmf.find("Precision=\"8\" Dimensions=\"6 3 4\">cube_00000007.h5:/u<") !=
          std::string::npos);
  }
}

TEST_CASE("output: xdmf uses iterations as times when the times do not increase") {
  TempDir dir;
  out::RunOutput run(dir.path().string(), "steady", out::test::make_grid(2, 2, 2), "");
  const std::vector<double> u(4, 0.0);
  run.snapshot<double>(0, 0.0, {{"u", u.data()}});
  CHECK(read_text(dir.path() / "steady.xmf").find("<Time Value=\"0\"/>") != std::string::npos);
  run.snapshot<double>(500, 0.0, {{"u", u.data()}});  // ParaView would merge two t = 0 steps
  const std::string xmf = read_text(dir.path() / "steady.xmf");
  CHECK(xmf.find("<Time Value=\"0\"/>") < xmf.find("<Time Value=\"500\"/>"));
  CHECK(xmf.find("<Time Value=\"500\"/>") != std::string::npos);
}

TEST_CASE("output: history.csv has the header and round-trip numbers") {
  TempDir dir;
  out::RunOutput run(dir.path().string(), "h", out::test::make_grid(2, 3, 3), "");
  const std::vector<out::HistoryRow> rows = {
      {1, 0.0, 1.0 / 3.0, 0.1, -1e-300, 1e300, 2.0 / 3.0, 0.001},
      {100, 0.5, 5e-324, 123456789.123456789, -0.0, 7.0, std::nextafter(1.0, 2.0), 12.5}};
  for (const auto& row : rows) run.add_history(row);
  run.flush_history();

  std::istringstream csv(read_text(dir.path() / "history.csv"));
  std::string line;
  std::getline(csv, line);
  CHECK(line == "iteration,time,norm_l2,norm_linf,min,max,mean,wall_seconds");
  for (const auto& row : rows) {
    REQUIRE(std::getline(csv, line));
    std::vector<std::string> cells;
    std::istringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, ',');) cells.push_back(cell);
    REQUIRE(cells.size() == 8);
    CHECK(std::stoll(cells[0]) == row.iteration);
    const double expected[] = {row.time, row.norm_l2, row.norm_linf,   row.min,
                               row.max,  row.mean,    row.wall_seconds};
    for (int k = 0; k < 7; ++k) {
      const double parsed = std::strtod(cells[k + 1].c_str(), nullptr);
      CHECK(std::memcmp(&parsed, &expected[k], sizeof(double)) == 0);  // bit-exact, sign of 0
    }
  }
  CHECK_FALSE(std::getline(csv, line));
}

TEST_CASE("output: summary.json escapes the config and writes null for non-finite numbers") {
  TempDir dir;
  const std::string config = "name: \"q\"\ntab:\there\\path\x01 \xc3\xa9";
  out::RunOutput run(dir.path().string(), "s", out::test::make_grid(3, 4, 3, 2), config);
  out::Summary summary;
  summary.name = "s";
  summary.backend = "cpu";
  summary.grid = out::test::make_grid(3, 4, 3, 2);
  summary.iterations = 1234;
  summary.converged = true;
  summary.status = "converged";
  summary.norm_l2 = 0.1;
  summary.norm_linf = std::numeric_limits<double>::quiet_NaN();
  summary.first_norm = std::numeric_limits<double>::infinity();
  summary.cells_per_second = 1.0 / 3.0;
  summary.config_yaml = config;
  run.write_summary(summary);
  const std::string json = read_text(dir.path() / "summary.json");

  CHECK(json.find("\"config\": \"name: \\\"q\\\"\\ntab:\\there\\\\path\\u0001 \xc3\xa9\"") !=
        std::string::npos);
  CHECK(json.find("\"norm_linf\": null") != std::string::npos);
  CHECK(json.find("\"first_norm\": null") != std::string::npos);
  CHECK(json.find("\"iterations\": 1234") != std::string::npos);
  CHECK(json.find("\"converged\": true") != std::string::npos);
  const auto at = json.find("\"cells_per_second\": ");
  REQUIRE(at != std::string::npos);
  CHECK(std::strtod(json.c_str() + at + 20, nullptr) == 1.0 / 3.0);

  // An independent JSON parser, where one is installed, must read the same values back.
  if (std::system("command -v python3 > /dev/null 2>&1") != 0) {
    MESSAGE("python3 not available: summary.json checked by string matching only");
    return;
  }
  const std::string script =
      "import json,sys; d=json.load(open(sys.argv[1])); g=d['grid']; "
      "open(sys.argv[2],'w',encoding='utf-8').write(d['config']); "
      "print(g['dims'], g['points'], g['origin'], g['spacing'], d['norm_l2'], d['status'], "
      "d['norm_linf'], file=open(sys.argv[3],'w'))";
  const std::string command = "python3 -c \"" + script + "\" '" + (dir / "summary.json") + "' '" +
                              (dir / "config.txt") + "' '" + (dir / "parsed.txt") + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(read_text(dir.path() / "config.txt") == config);
  CHECK(read_text(dir.path() / "parsed.txt") ==
        "3 [4, 3, 2] [1.5, -2, 0.5] [0.25, 0.5, 2] 0.1 converged None\n");
}
