// `fdsolve tune` and `bench --sizes` through the CLI on the CPU: the cache is written under
// XDG_CACHE_HOME, `check` and summary.json name it as the reason for the kernel, and a
// corrupt cache is ignored with a warning.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <fstream>
#include <regex>

#include "cli_runner.hpp"
#include "tuning/kernel_choice.hpp"

using namespace fdsolve::testing;
namespace fs = std::filesystem;

namespace {

/// XDG_CACHE_HOME set for the scope (the child processes inherit it).
struct CacheHome {
  TempDir dir;
  CacheHome() {
    fs::create_directories(dir.path);
    setenv("XDG_CACHE_HOME", dir.path.c_str(), 1);
  }
  ~CacheHome() { unsetenv("XDG_CACHE_HOME"); }
  fs::path file() const { return dir.path / "fdsolve" / "tune-cpu-cpu.yaml"; }
};

}  // namespace

TEST_CASE("regression: tune writes the cache that check and run then follow") {
  CacheHome home;
  const auto tune = run_fdsolve("tune --backend cpu --quick --dims 2 --precision double");
  INFO(tune.output);
  REQUIRE(tune.exit_code == 0);
  CHECK(tune.output.find("tune cache written: " + home.file().string()) != std::string::npos);
  const fdsolve::TuneCache cache = fdsolve::parse_tune_cache(read_text(home.file()));
  CHECK(cache.backend == "cpu");
  CHECK(cache.version == fdsolve::fdsolve_version());
  REQUIRE(cache.entries.size() == 2);  // the two smallest 2D rungs, double
  CHECK(cache.entries[0].size == 257);
  CHECK(cache.entries[1].size == 1025);
  for (const auto& e : cache.entries) {
    CHECK(e.kernel == "omp");
    CHECK(e.us_per_sweep > 0);
  }

  const std::string plate = example("plate.yaml") + " --set backend=cpu";
  auto check = run_fdsolve("check " + plate);
  INFO(check.output);
  CHECK(check.exit_code == 0);
  CHECK(check.output.find("# kernel: omp on cpu (tune cache " + home.file().string() +
                          ", size class 257^2 (double, 5-point))") != std::string::npos);

  TempDir out;
  const auto run = run_fdsolve("run " + plate + " --set solve.max_iterations=30 --output " +
                               out.path.string() + " --quiet");
  CHECK(run.exit_code == 3);  // max_iterations, results written
  const std::string summary = read_text(out.path / "summary.json");
  CHECK(summary.find("\"kernel_reason\": \"tune cache " + home.file().string()) !=
        std::string::npos);

  // A corrupt cache: warned about, not trusted, the run goes on with the fallback.
  std::ofstream(home.file(), std::ios::trunc) << "format: fdsolve-tune 1\nentries: [{dims: 2,";
  check = run_fdsolve("check " + plate);
  CHECK(check.exit_code == 0);
  CHECK(check.output.find("tune cache " + home.file().string() + " ignored: malformed") !=
        std::string::npos);
  CHECK(check.output.find("# kernel: omp on cpu (fallback") != std::string::npos);
  // tuning.kernel wins over everything.
  check = run_fdsolve("check " + plate + " --set tuning.kernel=omp");
  CHECK(check.output.find("# kernel: omp on cpu (tuning.kernel)") != std::string::npos);
  check = run_fdsolve("check " + plate + " --set tuning.kernel=warp9");
  CHECK(check.output.find("# kernel: 'warp9' is no 2D variant of cpu: run refuses it (omp)") !=
        std::string::npos);
}

TEST_CASE("regression: bench --sizes names the default and the best at each size") {
  CacheHome home;  // no cache: the choice must not depend on the user's
  TempDir dir;
  fs::create_directories(dir.path);
  const auto json = dir.path / "sizes.json";
  const auto r = run_fdsolve("bench --sizes --backend cpu --size 34 --json " + json.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string text = read_text(json);
  // One variant on the CPU: at each of 2D 5-point, 3D 7- and 27-point, float and double it is
  // both the default and the best.
  const std::regex row(
      R"re("kernel": "omp", "dims": (\d), "precision": "(\w+)", "size": 34, .*"points": (\d+), "role": "default\+best", "us/sweep": ([^,]+), "reason": "fallback)re");
  int rows = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it, ++rows)
    CHECK(std::stod((*it)[4]) > 0);
  CHECK(rows == 6);
  CHECK(r.output.find("us/sweep") != std::string::npos);
}
