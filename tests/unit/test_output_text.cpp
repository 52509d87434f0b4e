// The text outputs of RunOutput: the XDMF index (axis order, times, references, precision),
// history.csv (round-trip numbers) and summary.json (escaping, null for non-finite numbers).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

#include "history_csv.hpp"
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

namespace {

/// A diagnosed row: every column set to a value that only round-trip printing preserves.
out::HistoryRow diagnosed_row() {
  out::HistoryRow row;
  row.iteration = 100;
  row.time = 0.5;
  row.norm_l2 = 5e-324;
  row.norm_linf = 123456789.123456789;
  row.min = -0.0;
  row.max = 7.0;
  row.mean = std::nextafter(1.0, 2.0);
  row.diagnosed = true;
  row.nonfinite = 3;
  row.p50 = 0.0;
  row.p90 = 0x1.4p-7;
  row.p99 = std::numeric_limits<double>::quiet_NaN();  // no finite update
  row.linf_at = {4, 0, 2};
  row.wall_seconds = 12.5;
  return row;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("output: history.csv has the documented columns and round-trip numbers") {
  TempDir dir;
  out::RunOutput run(dir.path().string(), "h", out::test::make_grid(2, 3, 3), "");
  out::HistoryRow plain;  // a check without diagnostics
  plain.iteration = 1;
  plain.norm_l2 = 1.0 / 3.0;
  plain.norm_linf = 0.1;
  plain.min = -1e-300;
  plain.max = 1e300;
  plain.mean = 2.0 / 3.0;
  plain.wall_seconds = 0.001;
  plain.cycles = 3;  // an implicit heat step's multigrid cycles
  const std::vector<out::HistoryRow> rows = {plain, diagnosed_row()};
  for (const auto& row : rows) run.add_history(row);
  run.flush_history();

  const std::string text = read_text(dir.path() / "history.csv");
  std::istringstream csv(text);
  std::string line;
  std::getline(csv, line);
  CHECK(line ==
        "iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,linf_i,linf_j,"
        "linf_k,factor,cycles,wall_seconds");
  REQUIRE(std::getline(csv, line));
  CHECK(line ==
        "1,0,0.33333333333333331,0.10000000000000001,-1e-300,1.0000000000000001e+300,"
        "0.66666666666666663,,,,,,,,,3,0.001");
  REQUIRE(std::getline(csv, line));
  const std::vector<std::string> cells = split(line);
  REQUIRE(cells.size() == 17);
  CHECK(cells[15].empty());  // no cycles: not an implicit heat step
  CHECK(cells[0] == "100");
  CHECK(cells[7] == "3");
  CHECK(cells[10] == "nan");
  CHECK(cells[11] == "4");
  CHECK(cells[12] == "0");
  CHECK(cells[13] == "2");
  const out::HistoryRow& d = rows[1];
  const double expected[] = {d.time, d.norm_l2, d.norm_linf, d.min, d.max, d.mean};
  for (int k = 0; k < 6; ++k)
    CHECK(same_bits(std::strtod(cells[k + 1].c_str(), nullptr), expected[k]));  // sign of 0
  CHECK(std::strtod(cells[9].c_str(), nullptr) == 0x1.4p-7);
  CHECK_FALSE(std::getline(csv, line));

  // What a checkpoint stores reads back identical: the resumed history continues it exactly.
  const std::vector<out::HistoryRow> back = out::parse_history_csv(text);
  REQUIRE(back.size() == 2);
  CHECK_FALSE(back[0].diagnosed);
  CHECK(back[1].diagnosed);
  CHECK(back[1].nonfinite == 3);
  CHECK(back[1].linf_at == d.linf_at);
  CHECK(back[0].cycles == 3);
  CHECK(back[1].cycles == -1);
  CHECK(std::isnan(back[1].p99));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    CHECK(back[r].iteration == rows[r].iteration);
    for (const auto field :
         {&out::HistoryRow::time, &out::HistoryRow::norm_l2, &out::HistoryRow::norm_linf,
          &out::HistoryRow::min, &out::HistoryRow::max, &out::HistoryRow::mean,
          &out::HistoryRow::p50, &out::HistoryRow::p90, &out::HistoryRow::wall_seconds})
      CHECK(same_bits(back[r].*field, rows[r].*field));
  }
  CHECK(out::format_history_csv(back) == text);
}

TEST_CASE("output: history.csv of an earlier version reads as undiagnosed; bad lines throw") {
  const auto old = out::parse_history_csv(
      "iteration,time,norm_l2,norm_linf,min,max,mean,wall_seconds\n1,1,0.5,0.25,0,1,0.125,2\n");
  REQUIRE(old.size() == 1);
  CHECK_FALSE(old[0].diagnosed);
  CHECK(old[0].mean == 0.125);
  CHECK(old[0].wall_seconds == 2.0);
  // The cycles column (implicit heat steps), and files written before it.
  const std::string v4 = std::string(out::history_header) + "\n";
  CHECK(out::parse_history_csv(v4 + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,0.5,6,9\n")[0].cycles == 6);
  CHECK(out::parse_history_csv(v4 + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,0.5,,9\n")[0].cycles == -1);
  const std::string header = std::string(out::history_header_v3) + "\n";
  CHECK(out::parse_history_csv(header + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,,9\n")[0].linf_at[1] == 4);
  // The factor column: empty on a first row, else the norm over the previous row's.
  CHECK(std::isnan(out::parse_history_csv(header + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,,9\n")[0].factor));
  CHECK(out::parse_history_csv(header + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,0.125,9\n")[0].factor ==
        0.125);
  // Files written before the factor column still read.
  const std::string v2 = std::string(out::history_header_v2) + "\n";
  CHECK(out::parse_history_csv(v2 + "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,9\n")[0].wall_seconds == 9);
  for (const char* bad : {"7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,,,9\n",  // some diagnostics missing
                          "7,7,1,1,0,1,0.5,0,0.5,1,1,3,4,0,9\n",   // a column short
                          "7,7,1,1,0,1,x,0,0.5,1,1,3,4,0,,9\n",   // not a number
                          "7.5,7,1,1,0,1,0.5,,,,,,,,,9\n"}) {    // iteration not an integer
    CAPTURE(bad);
    CHECK_THROWS_AS(out::parse_history_csv(header + bad), out::OutputError);
  }
  CHECK_THROWS_AS(out::parse_history_csv("iteration,norm\n"), out::OutputError);
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

TEST_CASE("output: summary.json holds the last check, the divergence and every check's row") {
  TempDir dir;
  // origin (1.5, -2, 0.5), spacing (0.25, 0.5, 2): see make_grid.
  const out::GridMeta grid = out::test::make_grid(3, 4, 3, 2);
  out::RunOutput run(dir.path().string(), "s", grid, "");
  out::Summary summary;
  summary.grid = grid;
  summary.status = "diverged";
  out::HistoryRow first;
  first.iteration = 1;
  first.norm_l2 = 0.5;
  summary.history = {first, diagnosed_row()};
  summary.diverged = true;
  summary.divergence.iteration = 100;
  summary.divergence.time = 0.5;
  summary.divergence.reason = "nonfinite";
  summary.divergence.norm = std::numeric_limits<double>::quiet_NaN();
  summary.divergence.limit = 5e5;
  summary.divergence.nonfinite = 3;
  summary.divergence.nodes = {out::node_at(grid, {1, 2, 1}), out::node_at(grid, {3, 0, 1})};
  summary.divergence.snapshot = "s_00000100.h5";
  run.write_summary(summary);
  const std::string json = read_text(dir.path() / "summary.json");

  // Node (1, 2, 1) lies at (1.5 + 0.25, -2 + 2 * 0.5, 0.5 + 2) by x_i = origin + i h.
  CHECK(json.find("{\"node\": [1, 2, 1], \"x\": [1.75, -1, 2.5]}") != std::string::npos);
  CHECK(json.find("{\"node\": [3, 0, 1], \"x\": [2.25, -2, 2.5]}") != std::string::npos);
  // The last check locates linf_at; history rows are one line each, node indices only.
  CHECK(json.find("\"linf_at\": {\"node\": [4, 0, 2], \"x\": [2.5, -2, 4.5]}") !=
        std::string::npos);
  CHECK(
      json.find("    {\"iteration\": 1, \"time\": 0, \"norm_l2\": 0.5, \"norm_linf\": 0, \"min\": "
                "0, \"max\": 0, \"mean\": 0, \"nonfinite\": null, \"p50\": null, \"p90\": null, "
                "\"p99\": null, \"linf_at\": null, \"factor\": null, \"wall_seconds\": 0},\n") != std::string::npos);
  CHECK(json.find("\"nonfinite\": 3, \"p50\": 0, \"p90\": 0.009765625, \"p99\": null, "
                  "\"linf_at\": [4, 0, 2], \"factor\": null, \"wall_seconds\": 12.5}\n") != std::string::npos);

  if (std::system("command -v python3 > /dev/null 2>&1") != 0) {
    MESSAGE("python3 not available: summary.json checked by string matching only");
    return;
  }
  const std::string script =
      "import json,sys; d=json.load(open(sys.argv[1])); v=d['divergence']; l=d['last_check']; "
      "print(d['diagnostics'], v['reason'], v['nonfinite'], v['nodes'][1]['x'], v['snapshot'], "
      "l['iteration'], l['p90'], l['linf_at']['node'], len(d['history']), "
      "d['history'][0]['p50'], file=open(sys.argv[2],'w'))";
  const std::string command = "python3 -c \"" + script + "\" '" + (dir / "summary.json") + "' '" +
                              (dir / "parsed.txt") + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  CHECK(read_text(dir.path() / "parsed.txt") ==
        "True nonfinite 3 [2.25, -2, 2.5] s_00000100.h5 100 0.009765625 [4, 0, 2] 2 None\n");
}
