// Helpers shared by the output tests: a unique scratch directory per test, and random fields.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output::test {

/// A fresh directory under the system temp dir, removed afterwards unless
/// FDSOLVE_KEEP_TEST_OUTPUT is set (then its path is printed, e.g. to open it in ParaView).
class TempDir {
 public:
  TempDir() {
    std::random_device seed;
    const auto suffix = std::to_string(seed()) + "_" + std::to_string(seed());
    path_ = std::filesystem::temp_directory_path() / ("fdsolve_output_test_" + suffix);
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (std::getenv("FDSOLVE_KEEP_TEST_OUTPUT") != nullptr) {
      std::cerr << "kept test output: " << path_.string() << "\n";
      return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline GridMeta make_grid(int dims, std::int64_t nx, std::int64_t ny, std::int64_t nz = 1) {
  GridMeta grid;
  grid.dims = dims;
  grid.points = {nx, ny, dims == 3 ? nz : 1};
  grid.origin = {1.5, -2.0, dims == 3 ? 0.5 : 0.0};
  grid.spacing = {0.25, 0.5, dims == 3 ? 2.0 : 1.0};
  return grid;
}

inline std::size_t node_count(const GridMeta& grid) {
  return static_cast<std::size_t>(grid.points[0] * grid.points[1] * grid.points[2]);
}

/// Random values over many magnitudes and both signs, reproducible from `seed`.
template <typename T>
std::vector<T> random_field(std::size_t count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<T> values(count);
  for (T& value : values) value = static_cast<T>(std::ldexp(mantissa(engine), exponent(engine)));
  return values;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::size_t count_occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

/// Files in `directory` whose name contains ".tmp." (left-over temporaries).
inline std::vector<std::string> temp_files(const std::filesystem::path& directory) {
  std::vector<std::string> found;
  if (!std::filesystem::exists(directory)) return found;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) found.push_back(name);
  }
  return found;
}

}  // namespace fdsolve::output::test
