// `fdsolve bench` on the CPU at a tiny size: every row docs/commands.md promises (each variant, the
// halo-filled sweep, the diagnostics and the flux sweep, both precisions and dimensions, norm off
// and every sweep), and the row arithmetic GB/s = Gcell/s * values * sizeof(value) (2 values
// per node; dims + 2 for the flux sweep), %copy = GB/s / copy.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>

#include "cli_runner.hpp"

using namespace fdsolve::testing;

TEST_CASE("regression: bench rows and their arithmetic") {
  TempDir dir;
  std::filesystem::create_directories(dir.path);
  const auto json = dir.path / "bench.json";
  const auto r = run_fdsolve("bench --backend cpu --size 24 --iterations 3 --json " +
                             json.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string text = read_text(json);
  const std::regex row(R"re(\{"backend": "(\w+)", "kernel": "([\w+-]+)", "dims": (\d), "precision": "(\w+)", "size": (\d+), "iterations": (\d+), "Gcell/s": ([^,]+), "GB/s": ([^,]+), "%copy": ([^,]+), "norm_every": (\d+), "copy_GB/s": ([^}]+)\})re");
  std::set<std::string> seen;
  int rows = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it, ++rows) {
    const auto& m = *it;
    const std::string precision = m[4];
    const double gcells = std::stod(m[7]), gbs = std::stod(m[8]), pct = std::stod(m[9]),
                 copy = std::stod(m[11]);
    const double bytes = precision == "float" ? 4 : 8;
    const double values = std::string(m[2]).rfind("flux-", 0) == 0 ? std::stoi(m[3]) + 2 : 2;
    CHECK(gbs == doctest::Approx(gcells * values * bytes).epsilon(1e-4));
    CHECK(pct == doctest::Approx(100 * gbs / copy).epsilon(1e-4));
    CHECK(m[1] == "cpu");
    CHECK(m[5] == "24");
    seen.insert(std::string(m[2]) + " " + std::string(m[3]) + "D " + precision + " norm " +
                std::string(m[10]));
  }
  // omp, omp+halo and the flux sweep with norm off and every sweep, diagnose once: 7 rows per
  // dims/precision.
  CHECK(rows == 28);
  for (const char* dims : {"2D", "3D"})
    for (const char* p : {"float", "double"}) {
      const std::string tail = std::string(" ") + dims + " " + p;
      CHECK(seen.count("omp" + tail + " norm 0") == 1);
      CHECK(seen.count("omp" + tail + " norm 1") == 1);
      CHECK(seen.count("omp+halo" + tail + " norm 0") == 1);
      CHECK(seen.count("diagnose" + tail + " norm 0") == 1);
      const std::string flux = dims == std::string("2D") ? "flux-5pt" : "flux-7pt";
      CHECK(seen.count(flux + tail + " norm 0") == 1);
      CHECK(seen.count(flux + tail + " norm 1") == 1);
    }
  // The table on stdout has its documented columns, in their order.
  std::size_t at = 0;
  for (const char* column : {"backend", "kernel", "dims", "precision", "size", "iterations",
                             "Gcell/s", "GB/s", "%copy", "norm_every"}) {
    CAPTURE(column);
    at = r.output.find(column, at);
    CHECK(at != std::string::npos);
  }
  CHECK(r.output.find("copy bandwidth") != std::string::npos);
}
