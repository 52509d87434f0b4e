// The kernel choice without a GPU: nearest size class, built-in table look-up by model, the
// tune cache's format, and a corrupt or foreign cache ignored with a warning.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tuning/kernel_choice.hpp"

using namespace fdsolve;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() /
           ("fdsolve-choice-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<ChoiceEntry> ladder_entries() {
  // Distinct kernels per rung, so that a look-up shows which rung it took.
  return {{2, 5, "float", 257, "k257", 1.0},   {2, 5, "float", 1025, "k1025", 2.0},
          {2, 5, "float", 4097, "k4097", 3.0}, {2, 5, "float", 16384, "k16384", 4.0},
          {2, 5, "double", 257, "d257", 1.0},  {3, 27, "float", 65, "c65", 1.0},
          {3, 27, "float", 129, "c129", 1.0},  {3, 7, "float", 65, "s65", 1.0}};
}

ChoiceKey key2(std::int64_t n, const std::string& precision = "float") {
  return {2, 5, precision, n * n};
}

TuneCache sample_cache() {
  TuneCache c;
  c.backend = "cuda";
  c.device = {"NVIDIA H100 80GB HBM3", "12.8"};
  c.version = "1.2.3";
  c.entries = {{2, 5, "float", 257, "plain", 2.25}, {3, 27, "double", 129, "vring16s3", 40.5}};
  return c;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

const std::vector<std::string> k2{"plain", "rows128g4"}, k3{"plain", "vring16s3"};

}  // namespace

TEST_CASE("kernel choice: stencil classes") {
  CHECK(stencil_class(2, 5) == 5);
  CHECK(stencil_class(3, 7) == 7);
  CHECK(stencil_class(3, 19) == 27);
  CHECK(stencil_class(3, 27) == 27);
}

TEST_CASE("kernel choice: the nearest rung in log(cells)") {
  const auto e = ladder_entries();
  // The boundary between 257^2 and 1025^2 (255^2 and 1023^2 updated nodes) is their geometric
  // mean, about 510.7^2.
  CHECK(nearest_entry(e, key2(10))->kernel == "k257");
  CHECK(nearest_entry(e, key2(510))->kernel == "k257");
  CHECK(nearest_entry(e, key2(512))->kernel == "k1025");
  CHECK(nearest_entry(e, key2(2000))->kernel == "k1025");
  CHECK(nearest_entry(e, key2(2100))->kernel == "k4097");
  CHECK(nearest_entry(e, key2(100000))->kernel == "k16384");
  // Precision and stencil class must match; 19 points take the 27-point entries.
  CHECK(nearest_entry(e, key2(16384, "double"))->kernel == "d257");
  CHECK(nearest_entry(e, ChoiceKey{3, 19, "float", 120LL * 120 * 120})->kernel == "c129");
  CHECK(nearest_entry(e, ChoiceKey{3, 7, "float", 500LL * 500 * 500})->kernel == "s65");
  CHECK_FALSE(nearest_entry(e, ChoiceKey{3, 7, "double", 1000}).has_value());
  CHECK_FALSE(nearest_entry({}, key2(257)).has_value());
}

TEST_CASE("kernel choice: the size ladder") {
  CHECK(size_ladder(2) == std::vector<std::int64_t>{257, 1025, 4097, 16384});
  CHECK(size_ladder(3) == std::vector<std::int64_t>{65, 129, 257, 512});
  CHECK(size_ladder(3, true) == std::vector<std::int64_t>{65, 129});
  CHECK(size_text(3, 129) == "129^3");
}

TEST_CASE("kernel choice: built-in tables by the model's words") {
  REQUIRE(builtin_table("NVIDIA H100 80GB HBM3") != nullptr);
  CHECK(builtin_table("NVIDIA H100 80GB HBM3")->gpu == "H100");
  REQUIRE(builtin_table("NVIDIA H200") != nullptr);
  CHECK(builtin_table("NVIDIA H200")->gpu == "H200");
  CHECK(builtin_table("NVIDIA H1000") == nullptr);
  CHECK(builtin_table("NVIDIA A100-SXM4-80GB") == nullptr);
  CHECK(builtin_table("") == nullptr);
  // Every table covers every rung of the ladder in both precisions and every stencil class.
  for (const char* model : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
    const BuiltinTable* t = builtin_table(model);
    for (const char* precision : {"float", "double"})
      for (int dims : {2, 3})
        for (int points : dims == 2 ? std::vector<int>{5} : std::vector<int>{7, 27})
          for (std::int64_t size : size_ladder(dims)) {
            int found = 0;
            for (const ChoiceEntry& e : t->entries)
              found += e.dims == dims && e.points == points && e.precision == precision &&
                       e.size == size;
            CHECK_MESSAGE(found == 1, t->gpu << " " << dims << "D " << points << "-point "
                                             << precision << " " << size);
          }
  }
}

TEST_CASE("kernel choice: the tune cache's text round-trips") {
  const TuneCache c = sample_cache();
  const TuneCache back = parse_tune_cache(format_tune_cache(c));
  CHECK(back.backend == c.backend);
  CHECK(back.device.model == c.device.model);
  CHECK(back.device.driver == c.device.driver);
  CHECK(back.version == c.version);
  REQUIRE(back.entries.size() == 2);
  CHECK(back.entries[1].dims == 3);
  CHECK(back.entries[1].points == 27);
  CHECK(back.entries[1].precision == "double");
  CHECK(back.entries[1].size == 129);
  CHECK(back.entries[1].kernel == "vring16s3");
  CHECK(back.entries[1].us_per_sweep == doctest::Approx(40.5));
}

TEST_CASE("kernel choice: malformed cache text is refused with the reason") {
  const std::string good = format_tune_cache(sample_cache());
  CHECK_THROWS_WITH(parse_tune_cache("{{{"), doctest::Contains("not YAML"));
  CHECK_THROWS_WITH(parse_tune_cache("- a\n- b\n"), doctest::Contains("not a mapping"));
  CHECK_THROWS_WITH(parse_tune_cache("backend: cuda\n"), doctest::Contains("format"));
  std::string other = good;
  other.replace(other.find("fdsolve-tune 1"), 14, "fdsolve-tune 9");
  CHECK_THROWS_WITH(parse_tune_cache(other), doctest::Contains("format"));
  std::string bad_dims = good;
  bad_dims.replace(bad_dims.find("dims: 2"), 7, "dims: 4");
  CHECK_THROWS_WITH(parse_tune_cache(bad_dims), doctest::Contains("dims"));
  std::string bad_points = good;
  bad_points.replace(bad_points.find("points: 27"), 10, "points: 19");
  CHECK_THROWS_WITH(parse_tune_cache(bad_points), doctest::Contains("stencil class"));
  std::string no_number = good;
  no_number.replace(no_number.find("size: 257"), 9, "size: big");
  CHECK_THROWS_WITH(parse_tune_cache(no_number), doctest::Contains("number"));
  // Cut short: the file a crash could leave.
  CHECK_THROWS(parse_tune_cache(good.substr(0, good.size() / 2)));
}

TEST_CASE("kernel choice: the cache path is under the cache directory, named by model") {
  const fs::path p = tune_cache_path("/c/fdsolve", "cuda", "NVIDIA H100 80GB HBM3");
  CHECK(p == fs::path("/c/fdsolve/tune-cuda-NVIDIA_H100_80GB_HBM3.yaml"));
  CHECK(tune_cache_path("/c", "cuda", "a/../b").filename() == "tune-cuda-a_.._b.yaml");
}

TEST_CASE("kernel choice: a cache is trusted only when it matches the device") {
  TempDir dir;
  const fs::path path = dir.path / "cache.yaml";
  const DeviceIdentity h100{"NVIDIA H100 80GB HBM3", "12.8"};
  const auto load = [&](const DeviceIdentity& id, const std::string& version = "1.2.3") {
    return load_tune_cache(path, "cuda", id, version, k2, k3);
  };

  SUBCASE("no file: no cache, no warning") {
    const CacheLookup r = load(h100);
    CHECK_FALSE(r.cache.has_value());
    CHECK(r.warning.empty());
  }
  SUBCASE("a matching file is used") {
    write(path, format_tune_cache(sample_cache()));
    const CacheLookup r = load(h100);
    REQUIRE(r.cache.has_value());
    CHECK(r.warning.empty());
    CHECK(r.cache->entries.size() == 2);
  }
  SUBCASE("corrupt") {
    write(path, "format: fdsolve-tune 1\nentries: [{dims: 2, points: 5,");
    const CacheLookup r = load(h100);
    CHECK_FALSE(r.cache.has_value());
    CHECK(r.warning.find("ignored: malformed") != std::string::npos);
    CHECK(r.warning.find(path.string()) != std::string::npos);
  }
  SUBCASE("binary garbage") {
    write(path, std::string("\x00\xff\xfe\x01garbage", 11));
    CHECK_FALSE(load(h100).cache.has_value());
    CHECK_FALSE(load(h100).warning.empty());
  }
  SUBCASE("another GPU, driver, version or backend") {
    write(path, format_tune_cache(sample_cache()));
    CHECK(load({"NVIDIA H200", "12.8"}).warning.find("made on NVIDIA H100") != std::string::npos);
    CHECK(load({"NVIDIA H100 80GB HBM3", "13.0"}).warning.find("driver 12.8") != std::string::npos);
    CHECK(load(h100, "1.2.4").warning.find("fdsolve 1.2.3") != std::string::npos);
    CHECK_FALSE(load({"NVIDIA H200", "12.8"}).cache.has_value());
    const CacheLookup cpu = load_tune_cache(path, "cpu", h100, "1.2.3", k2, k3);
    CHECK_FALSE(cpu.cache.has_value());
    CHECK(cpu.warning.find("backend cuda") != std::string::npos);
  }
  SUBCASE("a variant this build lacks") {
    TuneCache c = sample_cache();
    c.entries[0].kernel = "rows999g9";
    write(path, format_tune_cache(c));
    const CacheLookup r = load(h100);
    CHECK_FALSE(r.cache.has_value());
    CHECK(r.warning.find("unknown 2D kernel 'rows999g9'") != std::string::npos);
    // A 2D name in a 3D entry is foreign too.
    c = sample_cache();
    c.entries[1].kernel = "rows128g4";
    write(path, format_tune_cache(c));
    CHECK(load(h100).warning.find("unknown 3D kernel") != std::string::npos);
  }
}

TEST_CASE("kernel choice: tuning.kernel, then the cache, then the built-in table, then fallback") {
  const DeviceIdentity h100{"NVIDIA H100 80GB HBM3", "12.8"};
  const DeviceIdentity other{"NVIDIA A100-SXM4-80GB", "12.8"};
  CacheLookup cache;
  cache.path = "/c/tune.yaml";
  cache.cache = sample_cache();
  const ChoiceKey small = key2(257);

  KernelChoice k = choose_variant("rows128g4", small, "cuda", h100, k2, "rows128g4", cache);
  CHECK(k.kernel == "rows128g4");
  CHECK(k.reason == "tuning.kernel");

  k = choose_variant("", small, "cuda", h100, k2, "rows128g4", cache);
  CHECK(k.kernel == "plain");
  CHECK(k.reason == "tune cache /c/tune.yaml, size class 257^2 (float, 5-point)");

  // No cache entry for double: the built-in table of the H100 answers with one of its entries.
  k = choose_variant("", key2(257, "double"), "cuda", h100,
                     {"plain", "rows128g4", "rows256g2", "rows32g4", "rows64g4", "rows128g8",
                      "rows256g4", "rows512g4", "tile32x8r4"},
                     "rows128g4", cache);
  const auto table = nearest_entry(builtin_table(h100.model)->entries, key2(257, "double"));
  REQUIRE(table.has_value());
  CHECK(k.kernel == table->kernel);
  CHECK(k.reason == "built-in table for H100, size class 257^2 (double, 5-point)");

  k = choose_variant("", key2(257, "double"), "cuda", other, k2, "rows128g4", cache);
  CHECK(k.kernel == "rows128g4");
  CHECK(k.reason == "fallback (no table for NVIDIA A100-SXM4-80GB)");

  // An entry naming a variant the backend lacks is passed over.
  k = choose_variant("", small, "cuda", other, {"rows128g4"}, "rows128g4", cache);
  CHECK(k.kernel == "rows128g4");
  CHECK(k.reason.rfind("fallback", 0) == 0);

  // The CPU has no built-in table.
  k = choose_variant("", small, "cpu", {"cpu", ""}, {"omp"}, "omp", CacheLookup{});
  CHECK(k.kernel == "omp");
  CHECK(k.reason.rfind("fallback", 0) == 0);
}
