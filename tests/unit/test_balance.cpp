// The balance of a check (solver/loop/balance.hpp) on grids small enough to work out by hand,
// and its columns in history.csv and summary.json.
#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "history_csv.hpp"
#include "layout.hpp"
#include "loop/balance.hpp"
#include "operator/medium.hpp"
#include "run_output.hpp"
#include "test_output_support.hpp"

namespace {

using fdsolve::Balance;
using fdsolve::Layout;
namespace out = fdsolve::output;

/// The balance of the 3 x 3 field `values` (x fastest) of case `yaml`, on one rank.
std::vector<double> measure(const std::string& yaml, const std::vector<double>& values) {
  const fdsolve::Case c = fdsolve::parse_case(yaml, "balance.yaml");
  const auto medium = std::make_shared<const fdsolve::op::Medium>(fdsolve::op::resolve_medium(c));
  Balance balance(c, fdsolve::Subdomain::whole(c), medium);
  const Layout L = Layout::make(2, {3, 3, 1}, 1);
  std::vector<double> u(static_cast<std::size_t>(L.size), -1e300);  // the halo is not read
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) u[static_cast<std::size_t>(L.at(i, j))] = values[j * 3 + i];
  return balance.measure(u.data(), L, 0.0);
}

}  // namespace

TEST_CASE("balance: a Dirichlet box's fluxes, worked out by hand") {
  // h = 1/2, cell area 1/4; u = 1 at the centre, 0 on the faces; f = 4.
  // A face's middle node: half a cell, f takes 1/2 x 1/4 x 4 = 1/2, the link to the centre
  // (a whole face of the half cell: coupling 1/h^2 x 1/4 = 1) brings in 1: 3/2. A corner: a
  // quarter cell, f takes 1/4, shared by its two faces. Each face: 3/2 + 2 x 1/8 = 7/4.
  // Their sum, 7, is the integral of f (4) less the centre's weighted residual
  // (1/4 x (4 - 4 x 1 / (1/4)) = -3).
  const std::vector<double> b = measure(
      "grid: {points: [3, 3], extent: [1, 1]}\n"
      "problem: {equation: poisson, source: 4}\n"
      "boundary: {default: {type: dirichlet, value: 0}}\n",
      {0, 0, 0, 0, 1, 0, 0, 0, 0});
  REQUIRE(b.size() == 5);
  CHECK(b[0] == doctest::Approx(0.25).epsilon(1e-15));  // the integral: the centre's cell
  for (int face = 1; face <= 4; ++face) CHECK(b[face] == doctest::Approx(1.75).epsilon(1e-15));
}

TEST_CASE("balance: a Neumann face takes -beta g over its whole area, Dirichlet ends included") {
  // beta 3, g 2 on x_min (1.5 long): -9 whatever u is; the y faces' Dirichlet nodes at its
  // ends count for half their spacing. The integral weighs the faces' nodes by 1/2.
  const std::vector<double> b = measure(
      "grid: {points: [3, 3], extent: [1, 1.5]}\n"
      "problem: {equation: laplace, coefficient: 3}\n"
      "boundary: {default: {type: dirichlet, value: 0},\n"
      "           x_min: {type: neumann, gradient: 2}}\n",
      {0, 0, 0, 5, 1, 0, 0, 0, 0});
  REQUIRE(b.size() == 5);
  CHECK(b[1] == doctest::Approx(-9.0).epsilon(1e-15));
  CHECK(b[0] == doctest::Approx((0.5 * 5 + 1) * 0.5 * 0.75).epsilon(1e-15));
}

TEST_CASE("balance: a held node takes what its neighbours send it") {
  // The centre held at 1, f = 0, the x faces insulated: each of its four links (coupling 1 at
  // h = 1/2) sends 1 - 0 away, so the flux out of the domain into it is -4 (an electrode at 1
  // of charge 4). The y faces' middle nodes each receive 1; the insulated faces carry none.
  const std::vector<double> b = measure(
      "grid: {points: [3, 3], extent: [1, 1]}\n"
      "problem: {equation: laplace, fixed: [{where: \"x > 0.4 && x < 0.6 && y > 0.4 && y < "
      "0.6\", value: 1}]}\n"
      "boundary: {default: {type: dirichlet, value: 0},\n"
      "           x_min: {type: neumann}, x_max: {type: neumann}}\n",
      {0, 0, 0, 0, 1, 0, 0, 0, 0});
  REQUIRE(b.size() == 6);
  CHECK(b[1] == 0.0);
  CHECK(b[2] == 0.0);
  CHECK(b[3] == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(b[4] == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(b[5] == doctest::Approx(-4.0).epsilon(1e-15));
}

TEST_CASE("balance: columns in history.csv and summary.json, older rows left empty") {
  out::HistoryRow old;  // a row of a checkpoint written before the balance columns
  old.iteration = 1;
  out::HistoryRow row;
  row.iteration = 2;
  row.balance = {0.5, 1, -1, 0.25, -0.25, 1.0 / 3.0};
  row.balance_faces = 4;
  const std::string text = out::format_history_csv({old, row});
  std::istringstream lines(text);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK(header ==
        "iteration,time,norm_l2,norm_linf,min,max,mean,nonfinite,p50,p90,p99,linf_i,linf_j,"
        "linf_k,factor,cycles,integral,flux_x_min,flux_x_max,flux_y_min,flux_y_max,"
        "flux_fixed_0,wall_seconds");
  CHECK(first == "1,0,0,0,0,0,0,,,,,,,,,,,,,,,,0");
  const std::vector<out::HistoryRow> back = out::parse_history_csv(text);
  REQUIRE(back.size() == 2);
  CHECK(back[0].balance.empty());
  CHECK(back[1].balance == row.balance);
  CHECK(back[1].balance_faces == 4);
  CHECK(out::format_history_csv(back) == text);
  CHECK(out::balance_columns(6, 8) ==
        std::vector<std::string>{"integral", "flux_x_min", "flux_x_max", "flux_y_min",
                                 "flux_y_max", "flux_z_min", "flux_z_max", "flux_fixed_0"});
  // A header whose balance columns are not the documented ones is refused.
  const std::string bad = std::string(out::history_header).insert(
      std::string(out::history_header).size() - 12, "integral,flux_up,");
  CHECK_THROWS_AS(out::parse_history_csv(bad + "\n"), out::OutputError);

  fdsolve::output::test::TempDir dir;
  out::RunOutput run(dir.path().string(), "b", out::test::make_grid(2, 3, 3), "");
  out::Summary summary;
  summary.grid = out::test::make_grid(2, 3, 3);
  summary.history = {row};
  run.write_summary(summary);
  const std::string json = out::test::read_text(dir.path() / "summary.json");
  CHECK(json.find("\"integral\": 0.5") != std::string::npos);
  CHECK(json.find("\"flux_fixed_0\": 0.33333333333333331") != std::string::npos);
}
