// A build whose HDF5 has no MPI-IO: snapshots over several ranks are gathered to rank 0
// (the slow path), and the collective writers are never called.
#include <stdexcept>

#include "snapshot_parallel.hpp"

namespace fdsolve::output {

bool parallel_hdf5() { return false; }

std::string collective_temp_path(const std::string& path) { return path + ".tmp.mpi"; }

template <typename T>
void write_fields_collective(const std::string&, const std::string&, const GridMeta&,
                             const std::vector<FieldRef<T>>&, const Hyperslab&) {
  throw std::logic_error("collective snapshot in a build without parallel HDF5");
}

void finish_collective(const std::string&, const std::string&, const SnapshotInfo&) {
  throw std::logic_error("collective snapshot in a build without parallel HDF5");
}

template void write_fields_collective<float>(const std::string&, const std::string&,
                                             const GridMeta&, const std::vector<FieldRef<float>>&,
                                             const Hyperslab&);
template void write_fields_collective<double>(const std::string&, const std::string&,
                                              const GridMeta&,
                                              const std::vector<FieldRef<double>>&,
                                              const Hyperslab&);

}  // namespace fdsolve::output
