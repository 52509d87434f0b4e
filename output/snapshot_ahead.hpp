// Snapshots begun ahead of their state: the fields that do not change during a run (the
// medium's coefficient, held-node mask and capacity) are written into the next snapshot's file
// and flushed to disk on a thread of their own while the run computes, so that taking a
// snapshot writes only the state's fields. On a large grid the medium's fields are gigabytes,
// which the disk takes about as long to write as the set-up and the solve take to run.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output {

class SnapshotAhead {
 public:
  /// Keeps `fields` (whose values `owner` keeps alive) and begins the first file, a temporary
  /// file in `directory` named after `name`.
  template <typename T>
  SnapshotAhead(const std::string& directory, const std::string& name, const GridMeta& grid,
                SnapshotFormat format, std::vector<FieldRef<T>> fields,
                std::shared_ptr<const void> owner);
  /// Waits for a file being begun and removes a begun file that no snapshot took.
  ~SnapshotAhead();
  SnapshotAhead(const SnapshotAhead&) = delete;
  SnapshotAhead& operator=(const SnapshotAhead&) = delete;

  /// The fields written ahead, in the order given.
  const std::vector<std::string>& names() const { return names_; }
  bool holds(const std::string& name) const;
  /// Waits until the begun file is written (beginning one first if none is) and hands it over:
  /// its path, for finish_snapshot_file. Rethrows the OutputError of a failed write.
  std::string take();
  /// Begins the next file on the thread (when none is begun): after a snapshot that another
  /// one may follow.
  void begin();

 private:
  std::function<void(const std::string&)> write_;
  std::vector<std::string> names_;
  std::string path_;          // the temporary file's name
  std::future<void> pending_;  // valid while a file at path_ is begun and not yet taken
};

}  // namespace fdsolve::output
