// The heat and periodic examples through the CLI on the CPU, against analytic answers: the 1D
// series solution of the insulated plate, and the exact solution of the periodic channel.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_runner.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

TEST_CASE("regression: heat_plate follows the 1D series solution and stores physical times") {
  TempDir out;
  const auto r =
      run_fdsolve("run " + example("heat_plate.yaml") + " --backend cpu --output " +
                  out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = last_snapshot(out.path);
  CHECK(s.info.time == doctest::Approx(0.1).epsilon(1e-14));
  const auto& g = s.info.grid;
  const auto& u = field(s, "u");
  double err = 0, spread = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 0; i < g.points[0]; ++i) {
      const double x = i * g.spacing[0], t = 0.1;
      double exact = 1 - x;
      for (int n = 1; n < 200; ++n)
        exact -= 2 / (n * M_PI) * std::exp(-n * n * M_PI * M_PI * t) * std::sin(n * M_PI * x);
      const double v = u[j * g.points[0] + i];
      err = std::max(err, std::fabs(v - exact));
      spread = std::max(spread, std::fabs(v - u[i]));  // insulated y faces: uniform in y
    }
  CHECK(err < 2e-3);  // O(h^2 + dt) with h = 1/64
  CHECK(spread < 1e-13);
  // The .xmf lists the snapshots with their physical times, not step numbers.
  const std::string xmf = read_text(out.path / "heat_plate.xmf");
  char last_time[64];
  std::snprintf(last_time, sizeof last_time, "Value=\"%.17g\"", 0.1);
  CHECK(xmf.find(last_time) != std::string::npos);
  CHECK(xmf.find("Value=\"1800\"") == std::string::npos);  // no step number stands in
  CHECK(fs::exists(out.path / "checkpoint.h5"));
}

TEST_CASE("regression: periodic_channel matches its exact solution") {
  TempDir out;
  const auto r = run_fdsolve("run " + example("periodic_channel.yaml") +
                             " --backend cpu --output " + out.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = last_snapshot(out.path);
  const auto& g = s.info.grid;
  CHECK(g.spacing[0] == doctest::Approx(1.0 / 64).epsilon(1e-15));
  const auto& u = field(s, "u");
  double err = 0;
  for (std::int64_t j = 0; j < g.points[1]; ++j)
    for (std::int64_t i = 0; i < g.points[0]; ++i) {
      const double x = i * g.spacing[0], y = j * g.spacing[1];
      err = std::max(err, std::fabs(u[j * g.points[0] + i] -
                                    std::sin(2 * M_PI * x) * std::sin(M_PI * y / 2)));
    }
  CHECK(err < 2e-3);
}
