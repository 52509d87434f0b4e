// See formula_cache.hpp.
#include "formula_cache.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <system_error>
#include <vector>

#include "formula_cache_use.hpp"

namespace fdsolve::cuda {
namespace {

constexpr char kMagic[] = "fdsolve formula cubin 2\n";

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

void put_size(std::string& out, std::uint64_t n) {
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
}

bool get_size(const std::string& in, std::size_t& at, std::uint64_t& n) {
  if (in.size() - at < 8) return false;
  n = 0;
  for (int b = 0; b < 8; ++b)
    n |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + b])) << (8 * b);
  at += 8;
  return true;
}

std::mutex process_cache_mutex;
std::optional<FormulaCache> process_cache;

}  // namespace

std::filesystem::path FormulaCache::path_of(const std::string& key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.cubin", static_cast<unsigned long long>(fnv1a(key)));
  return directory_ / name;
}

std::optional<std::string> FormulaCache::find(const std::string& key) const {
  std::ifstream in(path_of(key), std::ios::binary);
  if (!in) return std::nullopt;
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string magic(kMagic);
  if (file.compare(0, magic.size(), magic) != 0) return std::nullopt;
  std::size_t at = magic.size();
  std::uint64_t key_size = 0, cubin_size = 0;
  if (!get_size(file, at, key_size) || file.size() - at < key_size) return std::nullopt;
  if (file.compare(at, key_size, key) != 0 || key_size != key.size()) return std::nullopt;
  at += key_size;
  std::uint64_t sum = 0;
  if (!get_size(file, at, cubin_size) || !get_size(file, at, sum) ||
      file.size() - at != cubin_size || cubin_size == 0)
    return std::nullopt;
  std::string cubin = file.substr(at);
  if (fnv1a(cubin) != sum) return std::nullopt;  // damaged on disk: compile again
  return cubin;
}

bool FormulaCache::store(const std::string& key, const std::string& cubin) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return false;
  std::string file(kMagic);
  put_size(file, key.size());
  file += key;
  put_size(file, cubin.size());
  put_size(file, fnv1a(cubin));
  file += cubin;
  // A name no other writer uses, in the same directory, so that the rename is atomic.
  static std::atomic<unsigned> serial{0};
  const std::filesystem::path target = path_of(key);
  const std::filesystem::path part =
      target.string() + ".part." + std::to_string(::getpid()) + "." + std::to_string(serial++);
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    out.write(file.data(), static_cast<std::streamsize>(file.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(part, ec);
      return false;
    }
  }
  std::filesystem::rename(part, target, ec);
  if (ec) {
    std::filesystem::remove(part, ec);
    return false;
  }
  prune();
  return true;
}

void FormulaCache::prune() const {
  std::error_code ec;
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> entries;
  for (const auto& e : std::filesystem::directory_iterator(directory_, ec)) {
    if (e.path().extension() != ".cubin") continue;
    const auto when = e.last_write_time(ec);
    if (!ec) entries.emplace_back(when, e.path());
  }
  if (entries.size() <= kMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  const std::size_t remove = entries.size() - kMaxEntries * 3 / 4;
  for (std::size_t i = 0; i < remove; ++i) std::filesystem::remove(entries[i].second, ec);
}

void set_formula_cache(std::optional<FormulaCache> cache) {
  std::lock_guard lock(process_cache_mutex);
  process_cache = std::move(cache);
}

std::optional<FormulaCache> formula_cache() {
  std::lock_guard lock(process_cache_mutex);
  return process_cache;
}

}  // namespace fdsolve::cuda

namespace fdsolve {

void use_formula_cache(const std::filesystem::path& directory) {
  cuda::set_formula_cache(directory.empty() ? std::nullopt
                                            : std::optional(cuda::FormulaCache(directory)));
}

}  // namespace fdsolve
