// Private to output/: the pieces of a snapshot file shared by the serial writer (snapshot.cpp)
// and the collective one (snapshot_parallel.cpp), so both write the same layout.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "h5_handle.hpp"
#include "snapshot.hpp"

namespace fdsolve::output {

/// Throws OutputError for a request no snapshot can hold (bad dims, names, missing data).
template <typename T>
void check_request(const std::string& path, const SnapshotInfo& info,
                   const std::vector<FieldRef<T>>& fields);

/// The dataset shape of a field, slowest axis first ([ny][nx] or [nz][ny][nx]); returns dims.
int field_shape(const GridMeta& grid, hsize_t shape[3]);
/// The same for the field `name`, with the trailing component axis of a vector field
/// (field_components); returns the dataset's rank.
int field_shape(const GridMeta& grid, const std::string& name, hsize_t shape[4]);

/// The root attributes (time, iteration, origin, spacing, dims), /config and the text
/// datasets of `info`, into the open file `root`.
void write_metadata(hid_t root, const std::string& path, const SnapshotInfo& info);

/// Completes the closed HDF5 file `written` (`what` names it in errors) as the snapshot `path`:
/// add(file) adds to it (when given), then the metadata of `info`; fsynced and renamed into
/// place as write_snapshot does, removed on failure.
void complete_snapshot_file(const std::string& written, const std::string& path,
                            const SnapshotInfo& info, const std::string& what,
                            const std::function<void(hid_t)>& add);

}  // namespace fdsolve::output
