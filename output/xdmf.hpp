// The XDMF index (<name>.xmf) that ParaView opens: a temporal collection of the snapshots, each
// a uniform CoRectMesh whose attributes point into the snapshot's HDF5 file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot.hpp"

namespace fdsolve::output {

/// One complete snapshot as the index lists it.
struct XdmfEntry {
  std::string file;  // file name only, relative to the .xmf, so the directory can be moved
  std::int64_t iteration = 0;
  double time = 0;
  std::vector<std::string> fields;
  int precision_bytes = 8;  // 4 for float, 8 for double
};

/// The whole .xmf text for `entries`, in the order given. Each grid's Time is its time, or its
/// iteration for all of them when the times do not strictly increase (e.g. all 0).
std::string make_xdmf(const std::string& name, const GridMeta& grid,
                      const std::vector<XdmfEntry>& entries);

}  // namespace fdsolve::output
