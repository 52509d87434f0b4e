// `fdsolve bench` on the CPU at a tiny size: every row docs/commands.md promises (each variant, the
// halo-filled sweep, the diagnostics and the flux sweep, both precisions and dimensions, norm off
// and every sweep), and the row arithmetic GB/s = Gcell/s * values * sizeof(value) (2 values
// per node; dims + 2 for the flux sweep), %copy = GB/s / copy. Then `bench --io`.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

namespace {

/// A printed number as the interval of values it may stand for (`decimals` digits after the
/// point, rounded to nearest).
struct Printed {
  double lo, hi;
  Printed(double v, int decimals) {
    const double half = 0.5 * std::pow(10.0, -decimals);
    lo = v - half;
    hi = v + half;
  }
};

/// Lines of `text` (without their newline), empty ones left out.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

// `bench --io`: the four rows, their numbers recomputed from what is printed (GB/s = MB / median
// ms; %dd = GB/s over the dd-style row's GB/s), and nothing left in --dir.
TEST_CASE("regression: bench --io rows, their arithmetic, and a clean directory") {
  TempDir dir;
  std::filesystem::create_directories(dir.path);
  const auto r = run_fdsolve("bench --io --size 257 --iterations 2 --dir " + dir.path.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  std::size_t at = 0;
  for (const char* column : {"bench", "variant", "MB", "median_ms", "best_ms", "GB/s", "%dd"}) {
    CAPTURE(column);
    at = r.output.find(column, at);
    CHECK(at != std::string::npos);
  }
  const std::regex row(R"re(^io\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$)re");
  struct Row {
    double mb, median_ms, best_ms, gbs, pct;
  };
  std::map<std::string, Row> rows;
  for (const std::string& line : lines_of(r.output)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    CAPTURE(line);
    const Row v{std::stod(m[2]), std::stod(m[3]), std::stod(m[4]), std::stod(m[5]),
                std::stod(m[6])};
    for (double x : {v.mb, v.median_ms, v.best_ms, v.gbs, v.pct}) {
      CHECK(std::isfinite(x));
      CHECK(x > 0);
    }
    CHECK(v.best_ms <= v.median_ms);
    // GB/s = 1e6 bytes / ms: MB over the median ms, within the rounding of all three.
    const Printed mb(v.mb, 3), ms(v.median_ms, 3), gbs(v.gbs, 3);
    CHECK(mb.lo / ms.hi <= gbs.hi);
    CHECK(mb.hi / ms.lo >= gbs.lo);
    CHECK(rows.emplace(m[1], v).second);  // each variant once
  }
  REQUIRE(rows.size() == 4);
  for (const char* variant : {"dd-style", "snapshot", "snapshot-float", "snapshot-gzip1"}) {
    CAPTURE(variant);
    REQUIRE(rows.count(variant) == 1);
  }
  // 257^2 doubles; a snapshot holds them and its metadata; float half of that.
  CHECK(rows["dd-style"].mb == doctest::Approx(257.0 * 257 * 8 / 1e6).epsilon(1e-3));
  CHECK(rows["snapshot"].mb > rows["dd-style"].mb);
  CHECK(rows["snapshot-float"].mb < 0.6 * rows["dd-style"].mb);
  const Printed dd(rows["dd-style"].gbs, 3);
  for (const auto& [variant, v] : rows) {
    CAPTURE(variant);
    const Printed gbs(v.gbs, 3), pct(v.pct, 1);
    CHECK(100 * gbs.lo / dd.hi <= pct.hi);
    CHECK(100 * gbs.hi / dd.lo >= pct.lo);
  }
  CHECK(rows["dd-style"].pct == 100.0);
  CHECK(std::filesystem::is_empty(dir.path));
}

// An --io directory that cannot be written: exit 1, one line that says so, nothing printed
// before it. Root ignores permission bits, so the chmod case runs for other users only; a
// missing directory fails the same way for everyone.
TEST_CASE("regression: bench --io refuses a directory it cannot write") {
  TempDir dir;
  std::filesystem::create_directories(dir.path);
  const auto check_refused = [](const CliResult& r, const std::filesystem::path& where) {
    INFO(r.output);
    CHECK(r.exit_code == 1);
    const auto lines = lines_of(r.output);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find("error") != std::string::npos);
    CHECK(lines[0].find("cannot write") != std::string::npos);
    CHECK(lines[0].find(where.string()) != std::string::npos);
  };
  const auto missing = dir.path / "missing";
  check_refused(run_fdsolve("bench --io --size 33 --iterations 1 --dir " + missing.string()),
                missing);
  CHECK(!std::filesystem::exists(missing));
  if (::geteuid() == 0) {
    MESSAGE("running as root, which ignores permissions: the chmod 0500 case is skipped");
    return;
  }
  const auto locked = dir.path / "locked";
  std::filesystem::create_directories(locked);
  std::filesystem::permissions(locked, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_exec);
  const auto r = run_fdsolve("bench --io --size 33 --iterations 1 --dir " + locked.string());
  // TempDir removes the directory: give the permission back first.
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  check_refused(r, locked);
  CHECK(std::filesystem::is_empty(locked));
}
