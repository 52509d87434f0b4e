// Heat's output at physical times (the plan of steps that land on each output time) and the
// probes of output.probes (where each falls, what it reads, probes.csv), against hand-computed
// plans, cells and bilinear values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backend.hpp"
#include "case_reader.hpp"
#include "loop/probes.hpp"
#include "loop/stability.hpp"
#include "parallel/comm.hpp"
#include "output_error.hpp"
#include "probes_csv.hpp"
#include "problem/problem_setup.hpp"

using namespace fdsolve;

namespace {

const std::string kHeat = "grid: {points: [11, 11]}\nproblem: {equation: heat}\n";

Case heat_case(const std::string& time, const std::string& output) {
  return parse_case(kHeat + "time: " + time + "\noutput: " + output + "\n", "c.yaml");
}

std::vector<double> output_step_times(const TimePlan& p) {
  std::vector<double> times;
  for (const std::int64_t step : p.output_steps) times.push_back(p.time_after(step));
  return times;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("output marks: interval, times and probes round-trip through to_yaml") {
  const Case timed = heat_case(
      "{end: 0.1, dt: 0.001, scheme: implicit}",
      "{interval: 0.0125, probes: [{name: centre, at: [5, 5]}, {name: \"a b\", at: [0.3, 9.7]}]}");
  const std::string yaml = to_yaml(timed);
  CAPTURE(yaml);
  const Case again = parse_case(yaml, "written.yaml");
  CHECK(again.output == timed.output);
  CHECK(again.output.probes.size() == 2);
  CHECK(again.output.probes[1].name == "a b");
  CHECK(again.output.probes[1].at[1] == 9.7);

  const Case listed = heat_case("{end: 0.1}", "{times: [0.01, 0.025, 0.1]}");
  CHECK(parse_case(to_yaml(listed), "w.yaml").output.times == std::vector<double>{0.01, 0.025, 0.1});

  // Without them the keys are not written: the text (and a checkpoint's case hash) of older
  // cases stays as it was.
  const std::string plain = to_yaml(parse_case("grid: {points: [5, 5]}\n", "p.yaml"));
  for (const char* key : {"interval", "times", "probes"}) CHECK(plain.find(key) == std::string::npos);
}

TEST_CASE("output marks: a plan without output times is the plain one") {
  // dt 0.03 to 0.1: steps at 0.03, 0.06, 0.09 (k x dt) and one of 0.01 to land on 0.1.
  const TimePlan p = heat_time_plan(heat_case("{end: 0.1, dt: 0.03, scheme: implicit}", "{}"));
  CHECK(p.steps == 4);
  CHECK_FALSE(p.timed_output);
  CHECK(p.output_steps.empty());
  for (int k = 0; k < 4; ++k) CHECK(same_bits(p.time_after(k), k * 0.03));
  CHECK(p.time_after(4) == 0.1);
  CHECK(same_bits(p.step_dt(4), 0.1 - 3 * 0.03));
  CHECK(p.step_dt(2) == 0.03);
}

TEST_CASE("output marks: the steps land on every output time") {
  // Backward Euler, dt 0.01, interval 0.03 to 0.1: 3 steps to each of 0.03, 0.06, 0.09, then
  // one step of 0.01 to 0.1.
  const TimePlan be =
      heat_time_plan(heat_case("{end: 0.1, dt: 0.01, scheme: implicit}", "{interval: 0.03}"));
  CHECK(be.timed_output);
  CHECK(be.steps == 10);
  CHECK(be.output_steps == std::vector<std::int64_t>{3, 6, 9, 10});
  CHECK(output_step_times(be) == std::vector<double>{0.03, 2 * 0.03, 3 * 0.03, 0.1});
  CHECK(be.step_dt(2) == 0.01);
  CHECK(be.time_after(4) == 0.03 + 0.01);

  // Crank-Nicolson with its two half steps of 0.005 and an interval of 0.004, shorter than
  // them: the first half step is cut to 0.004, the second to 0.004 (from 0.004 to 0.008), then
  // full steps of 0.01 cut to the interval. Both start steps stay backward Euler.
  const TimePlan cn = heat_time_plan(
      heat_case("{end: 0.02, dt: 0.01, scheme: crank-nicolson}", "{interval: 0.004}"));
  CHECK(cn.startup == 2);
  CHECK(cn.output_steps == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK(output_step_times(cn) == std::vector<double>{0.004, 2 * 0.004, 3 * 0.004, 4 * 0.004, 0.02});
  CHECK(cn.startup_step(2));
  CHECK_FALSE(cn.startup_step(3));

  // The explicit step (dt from the stability limit) and Crank-Nicolson (a dt 40 times larger)
  // reach the same listed times, and the explicit steps never exceed the stable dt.
  const std::string times = "{times: [0.0013, 0.005, 0.02]}";
  const TimePlan ex = heat_time_plan(heat_case("{end: 0.03}", times));
  const TimePlan cn2 =
      heat_time_plan(heat_case("{end: 0.03, dt: 0.004, scheme: crank-nicolson}", times));
  const std::vector<double> expected{0.0013, 0.005, 0.02, 0.03};
  CHECK(output_step_times(ex) == expected);
  CHECK(output_step_times(cn2) == expected);
  for (std::int64_t step = 1; step <= ex.steps; ++step) {
    CHECK(ex.step_dt(step) > 0);
    CHECK(ex.step_dt(step) <= ex.dt);
  }
}

TEST_CASE("output marks: probes.csv reads back bit-identical") {
  output::ProbeTable table;
  table.names = {"centre", "edge"};
  table.rows.push_back({0, 0.0, {1.0 / 3, -0.0}});
  table.rows.push_back({17, 0.1 + 0.2, {1e-300, std::numeric_limits<double>::infinity()}});
  const std::string text = output::format_probes_csv(table);
  CHECK(text.rfind("time,iteration,centre,edge\n0,0,", 0) == 0);
  const output::ProbeTable back = output::parse_probes_csv(text);
  CHECK(back.names == table.names);
  REQUIRE(back.rows.size() == 2);
  for (std::size_t r = 0; r < 2; ++r) {
    CHECK(back.rows[r].iteration == table.rows[r].iteration);
    CHECK(same_bits(back.rows[r].time, table.rows[r].time));
    for (std::size_t v = 0; v < 2; ++v)
      CHECK(same_bits(back.rows[r].values[v], table.rows[r].values[v]));
  }
  CHECK_THROWS_AS(output::parse_probes_csv("time,iteration,a\n0,0\n"), output::OutputError);
}

TEST_CASE("output marks: a probe's cell, and its value by bilinear interpolation") {
  // Spacing 0.5 x 0.5 from origin (-1, 2).
  const Case c = parse_case(
      "grid: {points: [5, 3], extent: [2, 1], origin: [-1, 2]}\n"
      "output:\n  probes:\n"
      "    - {name: inside, at: [-0.25, 2.25]}\n"   // halfway in both: nodes (1..2, 0..1)
      "    - {name: node, at: [0.5, 2.5]}\n"        // node (3, 1)
      "    - {name: corner, at: [1, 3]}\n"          // the last node (4, 2)
      "    - {name: third, at: [-0.9, 2.8]}\n",     // fractions 0.2 and 0.6 of nodes (0, 1)
      "c.yaml");
  const std::vector<ProbeCell> cells = locate_probes(c);
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].node == std::array<index_t, 3>{1, 0, 0});
  CHECK(cells[0].next == std::array<index_t, 3>{2, 1, 0});
  CHECK(cells[0].fraction[0] == 0.5);
  CHECK(cells[0].fraction[1] == 0.5);
  CHECK(cells[1].node == std::array<index_t, 3>{3, 1, 0});
  CHECK(cells[1].fraction[0] == 0);
  CHECK(cells[1].fraction[1] == 0);
  CHECK(cells[2].node == std::array<index_t, 3>{4, 2, 0});
  CHECK(cells[2].fraction[0] == 0);
  CHECK(cells[3].node == std::array<index_t, 3>{0, 1, 0});
  CHECK(cells[3].fraction[0] == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(cells[3].fraction[1] == doctest::Approx(0.6).epsilon(1e-12));

  // A bilinear field is reproduced exactly by bilinear interpolation; the node's value is read
  // as it is, even beside a NaN.
  auto backend = make_cpu_backend<double>();
  const Layout L = field_layout(c, sizeof(double));
  std::vector<double> host(static_cast<std::size_t>(L.size), 0.0);
  const auto u = [](double x, double y) { return 1 + 2 * x + 3 * y + 0.5 * x * y; };
  for (index_t j = 0; j < 3; ++j)
    for (index_t i = 0; i < 5; ++i) host[L.at(i, j)] = u(-1 + 0.5 * i, 2 + 0.5 * j);
  host[L.at(2, 1)] = std::numeric_limits<double>::quiet_NaN();  // beside node (3, 1)
  Buffer<double> field = backend->allocate(L.size);
  backend->upload(field, host.data(), L.size);
  const parallel::Comm one;
  ProbeSampler<double> sampler(c, *backend, L, Subdomain::whole(c), one);
  const std::vector<double> values = sampler.sample(field);
  REQUIRE(values.size() == 4);
  CHECK(std::isnan(values[0]));  // its cell holds the NaN
  CHECK(same_bits(values[1], host[L.at(3, 1)]));
  CHECK(same_bits(values[2], host[L.at(4, 2)]));
  CHECK(values[3] == doctest::Approx(u(-0.9, 2.8)).epsilon(1e-14));
}

TEST_CASE("output marks: a probe past a periodic axis's last node reads node 0 beside it") {
  // x periodic: 4 nodes over an extent of 2, spacing 0.5; x = 1.75 lies between node 3 (1.5)
  // and node 0 repeated at 2.
  const Case c = parse_case(
      "grid: {points: [4, 3], extent: [2, 1]}\n"
      "boundary: {x_min: {type: periodic}, x_max: {type: periodic}}\n"
      "output: {probes: [{name: wrap, at: [1.75, 0.5]}]}\n",
      "c.yaml");
  const std::vector<ProbeCell> cells = locate_probes(c);
  CHECK(cells[0].node[0] == 3);
  CHECK(cells[0].next[0] == 0);
  CHECK(cells[0].fraction[0] == 0.5);
  auto backend = make_cpu_backend<double>();
  const Layout L = field_layout(c, sizeof(double));
  std::vector<double> host(static_cast<std::size_t>(L.size), 0.0);
  for (index_t j = 0; j < 3; ++j)
    for (index_t i = 0; i < 4; ++i) host[L.at(i, j)] = 10.0 * static_cast<double>(i) + j;
  Buffer<double> field = backend->allocate(L.size);
  backend->upload(field, host.data(), L.size);
  const parallel::Comm one;
  ProbeSampler<double> sampler(c, *backend, L, Subdomain::whole(c), one);
  // Halfway between node 3 (30 + 1 at y node 1) and node 0 (0 + 1): 16.
  CHECK(sampler.sample(field)[0] == 16.0);
}

TEST_CASE("output marks: a point written in decimal on a node reads the node") {
  // 0.3 / 0.1 is 2.9999999999999996 in binary: within 1e-9 spacings of node 3, so node 3.
  const Case c = parse_case(
      "grid: {points: [11, 11], extent: [1, 1]}\n"
      "output: {probes: [{name: p, at: [0.3, 0.7]}]}\n",
      "c.yaml");
  const ProbeCell cell = locate_probes(c)[0];
  CHECK(cell.node == std::array<index_t, 3>{3, 7, 0});
  CHECK(cell.fraction[0] == 0);
  CHECK(cell.fraction[1] == 0);
  CHECK(describe_probes(c)[0] == "p at (0.3, 0.7): on node (3, 7)");
}
