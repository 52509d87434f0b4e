// The compiled-formula cache (kernels/cuda/formula_cache.hpp): entries read back only under
// their whole key, written whole or not at all, pruned to their bound; and compile_expression
// reading a cubin an earlier run kept instead of compiling (NVRTC needs no GPU).
#include <doctest/doctest.h>

#if FDSOLVE_HAVE_CUDA
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cuda/expression_compile.hpp"
#include "cuda/formula_cache.hpp"
#include "formula_cache_use.hpp"

namespace {

namespace fs = std::filesystem;
using fdsolve::cuda::FormulaCache;

/// A fresh directory of its own under the system's temporary directory.
fs::path fresh_directory(const std::string& name) {
  const fs::path d = fs::temp_directory_path() /
                     ("fdsolve-formula-cache-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

std::size_t entries(const fs::path& d) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(d)) n += e.path().extension() == ".cubin";
  return n;
}

}  // namespace

TEST_CASE("formula cache: an entry is found under its whole key only") {
  const fs::path dir = fresh_directory("keys");
  const FormulaCache cache(dir);
  CHECK_FALSE(cache.find("key a").has_value());  // no directory yet: a miss, not an error
  REQUIRE(cache.store("key a", std::string("cubin\0a", 7)));
  REQUIRE(cache.find("key a").has_value());
  CHECK(*cache.find("key a") == std::string("cubin\0a", 7));
  CHECK_FALSE(cache.find("key b").has_value());
  // Another key filed under the same name (a collision) is a miss, not the other's cubin.
  fs::copy_file(cache.path_of("key a"), cache.path_of("key b"));
  CHECK_FALSE(cache.find("key b").has_value());
  // A truncated entry (a writer stopped part-way) is a miss.
  const std::string whole = read_all(cache.path_of("key a"));
  write_all(cache.path_of("key a"), whole.substr(0, whole.size() - 1));
  CHECK_FALSE(cache.find("key a").has_value());
  write_all(cache.path_of("key a"), "not an entry");
  CHECK_FALSE(cache.find("key a").has_value());
  // Nothing but entries is left behind by the writes.
  for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path().extension() == ".cubin");
  fs::remove_all(dir);
}

TEST_CASE("formula cache: a directory that cannot be made is no cache, not a failure") {
  const fs::path file = fresh_directory("file");
  write_all(file, "a file where the directory would be");
  const FormulaCache cache(file / "formulas");
  CHECK_FALSE(cache.store("key", "cubin"));
  CHECK_FALSE(cache.find("key").has_value());
  fs::remove(file);
}

TEST_CASE("formula cache: storing past the bound removes the oldest entries") {
  const fs::path dir = fresh_directory("prune");
  const FormulaCache cache(dir);
  const std::size_t bound = FormulaCache::kMaxEntries;
  const auto start = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (std::size_t i = 0; i < bound; ++i) {
    REQUIRE(cache.store("key " + std::to_string(i), "cubin"));
    // Entry i is i seconds newer than the first, whatever the file system's time resolution.
    fs::last_write_time(cache.path_of("key " + std::to_string(i)),
                        start + std::chrono::seconds(i));
  }
  CHECK(entries(dir) == bound);
  REQUIRE(cache.store("newest", "cubin"));
  CHECK(entries(dir) == bound * 3 / 4);
  CHECK(cache.find("newest").has_value());
  CHECK(cache.find("key " + std::to_string(bound - 1)).has_value());
  CHECK_FALSE(cache.find("key 0").has_value());
  CHECK_FALSE(cache.find("key " + std::to_string(bound / 4)).has_value());
  CHECK(cache.find("key " + std::to_string(bound / 4 + 1)).has_value());
  fs::remove_all(dir);
}

TEST_CASE("formula cache: compile_expression keeps what it compiles and reads it back") {
  const fs::path dir = fresh_directory("compile");
  fdsolve::FieldProgram p;
  p.cuda_body = "x * y + 0.125";  // a formula no other test compiles, so no compile is under way
  const std::string source = fdsolve::cuda::expression_source(p);
  fdsolve::use_formula_cache(dir);
  const std::string compiled = fdsolve::cuda::compile_expression(source, 90);
  REQUIRE(compiled.size() > 0);
  REQUIRE(entries(dir) == 1);
  const fs::path entry = fs::directory_iterator(dir)->path();
  // The entry's cubin damaged on disk: a miss, compiled and kept again.
  const std::string whole = read_all(entry);
  REQUIRE(whole.size() > compiled.size());
  REQUIRE(whole.compare(whole.size() - compiled.size(), compiled.size(), compiled) == 0);
  std::string damaged = whole;
  damaged[damaged.size() - 1] ^= 1;
  write_all(entry, damaged);
  CHECK(fdsolve::cuda::compile_expression(source, 90) == compiled);
  CHECK(read_all(entry) == whole);
  // Another entry's cubin (and its checksum) in its place: what comes back is the entry's, not
  // a new compile's, so the cache is read.
  const std::string other = FormulaCache(dir).path_of("other").string();
  REQUIRE(FormulaCache(dir).store("other", "kept cubin"));
  const std::string kept = read_all(other);
  const std::string key_part = whole.substr(0, whole.size() - compiled.size() - 16);
  write_all(entry, key_part + kept.substr(kept.size() - std::string("kept cubin").size() - 16));
  CHECK(fdsolve::cuda::compile_expression(source, 90) == "kept cubin");
  fs::remove(other);
  // Another architecture is another entry.
  CHECK(fdsolve::cuda::compile_expression(source, 80) != "kept cubin");
  CHECK(entries(dir) == 2);
  // Without the cache NVRTC compiles again.
  fdsolve::use_formula_cache({});
  CHECK(fdsolve::cuda::compile_expression(source, 90) == compiled);
  fs::remove_all(dir);
}
#endif
