// Compiled formulas kept on disk between runs. NVRTC's first compile in a process costs 0.1-0.5 s
// (its own start-up, serial over the case's formulas), more than creating the CUDA context it is
// meant to overlap; a formula compiled once is read back from the cache instead. Plain C++.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace fdsolve::cuda {

/// A directory of cubins, each filed under a hash of its key (everything that decides the
/// cubin: the source, the architecture, NVRTC's version and options) and holding the whole key
/// and a checksum of the cubin, so that a hash collision, a foreign file or a damaged entry is
/// a miss. Reading or writing never fails a run:
/// any trouble is a miss, and a write goes to a file of its own first, then is renamed, so that
/// concurrent runs never read a half-written entry.
class FormulaCache {
 public:
  /// Entries kept: storing past it removes the oldest (by modification time) down to 3/4.
  static constexpr std::size_t kMaxEntries = 256;

  explicit FormulaCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

  std::optional<std::string> find(const std::string& key) const;
  /// Whether the entry was written (false: the directory could not be made or written).
  bool store(const std::string& key, const std::string& cubin) const;

  const std::filesystem::path& directory() const { return directory_; }
  /// The file `key` is filed under: 16 hexadecimal digits of its FNV-1a hash, ".cubin".
  std::filesystem::path path_of(const std::string& key) const;

 private:
  void prune() const;
  std::filesystem::path directory_;
};

/// The process's cache for compile_expression (expression_compile.hpp); none until set.
void set_formula_cache(std::optional<FormulaCache> cache);
std::optional<FormulaCache> formula_cache();

}  // namespace fdsolve::cuda
