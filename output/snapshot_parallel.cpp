// Collective snapshots with parallel HDF5 (snapshot_parallel.hpp): the fields through MPI-IO
// with collective transfers, each rank its own hyperslab; then rank 0 adds the metadata.
#include "snapshot_parallel.hpp"

#include <filesystem>
#include <type_traits>

#include "atomic_file.hpp"
#include "h5_handle.hpp"
#include "output_error.hpp"
#include "snapshot_write.hpp"

namespace fdsolve::output {

using h5::Handle;

bool parallel_hdf5() { return true; }

std::string collective_temp_path(const std::string& path) { return path + ".tmp.mpi"; }

template <typename T>
void write_fields_collective(const std::string& temp, const std::string& path, const GridMeta& grid,
                             const std::vector<FieldRef<T>>& fields, const Hyperslab& mine) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  h5::silence_errors();
  SnapshotInfo shape_only;
  shape_only.grid = grid;
  check_request(path, shape_only, fields);
  const hid_t value_type = std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, path, "cannot create a file access list");
  h5::check(H5Pset_fapl_mpio(access.get(), MPI_COMM_WORLD, MPI_INFO_NULL), path,
            "cannot select MPI-IO");
  Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose, path,
              "cannot create the HDF5 file");
  Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose, path, "cannot create a transfer list");
  h5::check(H5Pset_dxpl_mpio(transfer.get(), H5FD_MPIO_COLLECTIVE), path,
            "cannot select collective transfers");

  hsize_t shape[3], start[3], count[3];
  const int rank = field_shape(grid, shape);
  for (int k = 0; k < rank; ++k) {  // slowest axis first, as the datasets are shaped
    start[k] = static_cast<hsize_t>(mine.offset[rank - 1 - k]);
    count[k] = static_cast<hsize_t>(mine.count[rank - 1 - k]);
  }
  Handle space(H5Screate_simple(rank, shape, nullptr), H5Sclose, path,
               "cannot create the field dataspace");
  Handle part(H5Scopy(space.get()), H5Sclose, path, "cannot copy the field dataspace");
  h5::check(H5Sselect_hyperslab(part.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), path,
            "cannot select this rank's nodes");
  Handle memory(H5Screate_simple(rank, count, nullptr), H5Sclose, path,
                "cannot create the memory dataspace");
  for (const auto& field : fields) {
    const std::string what = "cannot write dataset /" + field.name;
    if (const int components = field_components(field.name, grid.dims); components > 1) {
      // A vector field: this rank's nodes with every component.
      hsize_t vector_shape[4], vector_start[4], vector_count[4];
      const int vector_rank = field_shape(grid, field.name, vector_shape);
      for (int k = 0; k < rank; ++k) {
        vector_start[k] = start[k];
        vector_count[k] = count[k];
      }
      vector_start[rank] = 0;
      vector_count[rank] = static_cast<hsize_t>(components);
      Handle vector_space(H5Screate_simple(vector_rank, vector_shape, nullptr), H5Sclose, path,
                          what.c_str());
      Handle vector_part(H5Scopy(vector_space.get()), H5Sclose, path, what.c_str());
      h5::check(H5Sselect_hyperslab(vector_part.get(), H5S_SELECT_SET, vector_start, nullptr,
                                    vector_count, nullptr),
                path, "cannot select this rank's nodes");
      Handle vector_memory(H5Screate_simple(vector_rank, vector_count, nullptr), H5Sclose, path,
                           what.c_str());
      Handle dataset(H5Dcreate2(file.get(), field.name.c_str(), value_type, vector_space.get(),
                                H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Dclose, path, what.c_str());
      h5::check(H5Dwrite(dataset.get(), value_type, vector_memory.get(), vector_part.get(),
                         transfer.get(), field.data),
                path, what.c_str());
      continue;
    }
    // A mask (stored_as_mask) as one byte a node, as the serial writer stores it.
    const hid_t file_type = field.mask ? H5T_STD_U8LE : value_type;
    const hid_t memory_type = field.mask ? H5T_NATIVE_UINT8 : value_type;
    const void* values = field.mask ? static_cast<const void*>(field.mask) : field.data;
    Handle dataset(H5Dcreate2(file.get(), field.name.c_str(), file_type, space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, path, what.c_str());
    h5::check(H5Dwrite(dataset.get(), memory_type, memory.get(), part.get(), transfer.get(),
                       values),
              path, what.c_str());
  }
  file.close(path, "cannot flush and close the HDF5 file");
}

void finish_collective(const std::string& temp, const std::string& path, const SnapshotInfo& info) {
  h5::silence_errors();
  complete_snapshot_file(temp, path, info, "the collectively written", {});
}

template void write_fields_collective<float>(const std::string&, const std::string&,
                                             const GridMeta&, const std::vector<FieldRef<float>>&,
                                             const Hyperslab&);
template void write_fields_collective<double>(const std::string&, const std::string&,
                                              const GridMeta&,
                                              const std::vector<FieldRef<double>>&,
                                              const Hyperslab&);

}  // namespace fdsolve::output
