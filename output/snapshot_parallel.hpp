// Snapshots written by every rank at once with parallel HDF5 (MPI-IO): each rank writes the
// hyperslab of the nodes it owns, collectively, into one file with the layout, attributes and
// text datasets of write_snapshot, so readers (ParaView, `fdsolve compare`) see no difference.
// Two steps, between which the ranks must agree that the first went well on all of them:
//   every rank: write_fields_collective(temp, ...)    (MPI_COMM_WORLD, collective)
//   rank 0:     finish_collective(temp, path, info)   (attributes, /config, rename into place)
// Variable-length strings cannot be written through MPI-IO, which is why rank 0 adds the
// metadata alone. Built without parallel HDF5, parallel_hdf5() is false and the writers throw.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output {

/// Whether this build writes snapshots collectively (HDF5 built with MPI-IO).
bool parallel_hdf5();

/// The name every rank writes a collective snapshot of `path` under before it is renamed (the
/// same on every rank, unlike write_file_atomic's per-process name).
std::string collective_temp_path(const std::string& path);

/// Collective over MPI_COMM_WORLD: creates `temp` and writes this rank's `fields` (dense, its
/// owned nodes, x fastest) at `mine` of datasets shaped like `grid`. Throws OutputError.
template <typename T>
void write_fields_collective(const std::string& temp, const std::string& path, const GridMeta& grid,
                             const std::vector<FieldRef<T>>& fields, const Hyperslab& mine);

/// Rank 0 alone, once every rank's write_fields_collective has returned: adds the attributes,
/// /config and the text datasets of `info` to `temp`, then fsyncs it and renames it to `path`.
void finish_collective(const std::string& temp, const std::string& path, const SnapshotInfo& info);

}  // namespace fdsolve::output
