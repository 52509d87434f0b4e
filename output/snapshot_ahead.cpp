// See snapshot_ahead.hpp.
#include "snapshot_ahead.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "atomic_file.hpp"

namespace fdsolve::output {

template <typename T>
SnapshotAhead::SnapshotAhead(const std::string& directory, const std::string& name,
                             const GridMeta& grid, SnapshotFormat format,
                             std::vector<FieldRef<T>> fields, std::shared_ptr<const void> owner)
    : path_(temp_path_for(std::filesystem::path(directory) / ("." + name + "_ahead.h5"))
                .string()) {
  for (const FieldRef<T>& f : fields) names_.push_back(f.name);
  write_ = [grid, format, fields = std::move(fields), owner = std::move(owner)](
               const std::string& path) { begin_snapshot_file(path, grid, format, fields); };
  begin();
}

SnapshotAhead::~SnapshotAhead() {
  if (!pending_.valid()) return;
  try {
    pending_.get();
  } catch (const std::exception& e) {
    spdlog::debug("a snapshot begun ahead and not used failed: {}", e.what());
  }
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

bool SnapshotAhead::holds(const std::string& name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

void SnapshotAhead::begin() {
  if (pending_.valid()) return;
  pending_ = std::async(std::launch::async, [this] { write_(path_); });
}

std::string SnapshotAhead::take() {
  begin();
  pending_.get();  // leaves pending_ invalid; a failed write removed its file
  return path_;
}

template SnapshotAhead::SnapshotAhead(const std::string&, const std::string&, const GridMeta&,
                                      SnapshotFormat, std::vector<FieldRef<float>>,
                                      std::shared_ptr<const void>);
template SnapshotAhead::SnapshotAhead(const std::string&, const std::string&, const GridMeta&,
                                      SnapshotFormat, std::vector<FieldRef<double>>,
                                      std::shared_ptr<const void>);

}  // namespace fdsolve::output
