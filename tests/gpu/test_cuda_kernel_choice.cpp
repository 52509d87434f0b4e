// The kernel choice on the CUDA device at hand: the built-in tables name only variants this
// backend has, a case at every rung resolves to one, and a tune cache made for this device is
// followed while one made for another device is ignored with a warning.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "backend.hpp"
#include "tuning/kernel_choice.hpp"

namespace fdsolve {

namespace {

bool has(const std::vector<std::string>& names, const std::string& k) {
  return std::find(names.begin(), names.end(), k) != names.end();
}

}  // namespace

TEST_CASE("gpu: the built-in tables name CUDA variants, and every rung resolves") {
  auto be = make_cuda_backend<float>(0);
  const auto k2 = be->kernels(2), k3 = be->kernels(3);
  for (const char* model : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
    const BuiltinTable* t = builtin_table(model);
    REQUIRE(t != nullptr);
    for (const ChoiceEntry& e : t->entries)
      CHECK_MESSAGE(has(e.dims == 2 ? k2 : k3, e.kernel), t->gpu << " names " << e.kernel);
  }
  const DeviceIdentity id = be->identity();
  CHECK_FALSE(id.model.empty());
  CHECK_FALSE(id.driver.empty());
  const bool tabled = builtin_table(id.model) != nullptr;
  for (int dims : {2, 3})
    for (std::int64_t n : size_ladder(dims)) {
      const std::int64_t cells = dims == 2 ? (n - 2) * (n - 2) : (n - 2) * (n - 2) * (n - 2);
      const KernelChoice k =
          choose_variant("", {dims, dims == 2 ? 5 : 27, "float", cells}, "cuda", id,
                         dims == 2 ? k2 : k3, be->default_kernel(dims), CacheLookup{});
      CHECK(has(dims == 2 ? k2 : k3, k.kernel));
      CHECK(k.reason.rfind(tabled ? "built-in table for " : "fallback", 0) == 0);
    }
}

TEST_CASE("gpu: a tune cache of this device is followed, another device's is not") {
  auto be = make_cuda_backend<double>(0);
  std::random_device rd;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fdsolve-gpu-cache-" + std::to_string(rd()) + std::to_string(rd()));
  setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  const auto path = tune_cache_path(tune_cache_directory(), "cuda", be->identity().model);
  std::filesystem::create_directories(path.parent_path());
  TuneCache c;
  c.backend = "cuda";
  c.device = be->identity();
  c.version = fdsolve_version();
  c.entries = {{2, 5, "double", 1025, "rows64g4", 1.0}};
  std::ofstream(path) << format_tune_cache(c);
  const ChoiceKey key{2, 5, "double", 1023 * 1023};
  KernelChoice k = choose_with_cache("", key, "cuda", be->identity(), be->kernels(2),
                                     be->kernels(3), be->default_kernel(2));
  CHECK(k.kernel == "rows64g4");
  CHECK(k.reason.rfind("tune cache " + path.string(), 0) == 0);
  CHECK(k.warning.empty());

  c.device.model = "NVIDIA Other GPU";
  std::ofstream(path, std::ios::trunc) << format_tune_cache(c);
  k = choose_with_cache("", key, "cuda", be->identity(), be->kernels(2), be->kernels(3),
                        be->default_kernel(2));
  CHECK(k.reason.find("tune cache") == std::string::npos);
  CHECK(k.warning.find("made on NVIDIA Other GPU") != std::string::npos);
  unsetenv("XDG_CACHE_HOME");
  std::filesystem::remove_all(dir);
}

}  // namespace fdsolve
