// Writes one HDF5 snapshot: a dataset per field shaped [ny][nx] or [nz][ny][nx], the grid and
// time as root attributes, and the resolved case as /config (docs/output.md).
#include "snapshot.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <type_traits>

#include "atomic_file.hpp"
#include "h5_handle.hpp"
#include "output_error.hpp"
#include "snapshot_write.hpp"

namespace fdsolve::output {

using h5::Handle;

template <typename T>
void check_request(const std::string& path, const SnapshotInfo& info,
                   const std::vector<FieldRef<T>>& fields) {
  const GridMeta& grid = info.grid;
  if (grid.dims != 2 && grid.dims != 3) {
    throw OutputError(path + ": grid.dims must be 2 or 3, got " + std::to_string(grid.dims));
  }
  for (int axis = 0; axis < grid.dims; ++axis) {
    if (grid.points[axis] < 1) throw OutputError(path + ": grid has an axis without points");
  }
  for (const auto& field : fields) {
    if (field.name.empty() || field.name == "config" || field.name.find('/') != std::string::npos) {
      throw OutputError(path + ": invalid field name '" + field.name + "'");
    }
    if (stored_as_mask(field.name) != (field.mask != nullptr))
      throw OutputError(path + ": field '" + field.name + "' " +
                        (field.mask ? "is not a mask" : "is a mask and has no mask values"));
    if (field.data == nullptr && field.mask == nullptr && !(field.read && field.slab > 0))
      throw OutputError(path + ": field '" + field.name + "' has no data");
    if (field.read && info.format.gzip_level > 0)
      throw OutputError(path + ": field '" + field.name + "' is read in slabs, which compression "
                        "does not take");
  }
  for (const auto& field : fields) {
    if (info.texts.count(field.name) != 0)
      throw OutputError(path + ": field '" + field.name + "' has the name of a text dataset");
  }
}

template void check_request<float>(const std::string&, const SnapshotInfo&,
                                   const std::vector<FieldRef<float>>&);
template void check_request<double>(const std::string&, const SnapshotInfo&,
                                    const std::vector<FieldRef<double>>&);

// XDMF and h5py users index [z][y][x]: the slowest axis first, x fastest.
int field_shape(const GridMeta& grid, hsize_t shape[3]) {
  for (int k = 0; k < grid.dims; ++k) {
    shape[k] = static_cast<hsize_t>(grid.points[grid.dims - 1 - k]);
  }
  return grid.dims;
}

int field_components(const std::string& name, int dims) { return name == "flux" ? dims : 1; }

bool stored_as_mask(const std::string& name) { return name == "fixed"; }

int field_shape(const GridMeta& grid, const std::string& name, hsize_t shape[4]) {
  const int rank = field_shape(grid, shape);
  const int components = field_components(name, grid.dims);
  if (components == 1) return rank;
  shape[rank] = static_cast<hsize_t>(components);
  return rank + 1;
}

namespace {

void write_attribute(hid_t file, const std::string& path, const char* name, hid_t type,
                     const void* value, hsize_t count) {
  Handle space(count == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose,
               path, "cannot create an attribute dataspace");
  Handle attribute(H5Acreate2(file, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                   path, ("cannot create attribute " + std::string(name)).c_str());
  h5::check(H5Awrite(attribute.get(), type, value), path,
            ("cannot write attribute " + std::string(name)).c_str());
}

void write_text(hid_t file, const std::string& path, const std::string& name,
                const std::string& content) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, path, "cannot create the string type");
  h5::check(H5Tset_size(type.get(), H5T_VARIABLE), path, "cannot size the string type");
  h5::check(H5Tset_cset(type.get(), H5T_CSET_UTF8), path, "cannot set the string encoding");
  const std::string what = "cannot write dataset /" + name;
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, path, what.c_str());
  Handle dataset(
      H5Dcreate2(file, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                 H5P_DEFAULT),
      H5Dclose, path, what.c_str());
  const char* text = content.c_str();
  h5::check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text), path,
            what.c_str());
}

}  // namespace

void write_metadata(hid_t root, const std::string& path, const SnapshotInfo& info) {
  const auto dims = static_cast<hsize_t>(info.grid.dims);
  const int dims_value = info.grid.dims;
  const std::int64_t iteration = info.iteration;
  write_attribute(root, path, "time", H5T_NATIVE_DOUBLE, &info.time, 0);
  write_attribute(root, path, "iteration", H5T_NATIVE_INT64, &iteration, 0);
  write_attribute(root, path, "origin", H5T_NATIVE_DOUBLE, info.grid.origin.data(), dims);
  write_attribute(root, path, "spacing", H5T_NATIVE_DOUBLE, info.grid.spacing.data(), dims);
  write_attribute(root, path, "dims", H5T_NATIVE_INT, &dims_value, 0);
  write_text(root, path, "config", info.config_yaml);
  for (const auto& [name, text] : info.texts) write_text(root, path, name, text);
}

namespace {

/// The datasets of `fields` into the open file `file`, stored as info.format says.
template <typename T>
void write_fields(hid_t file, const std::string& path, const SnapshotInfo& info,
                  const std::vector<FieldRef<T>>& fields) {
  const hid_t value_type = std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  const hid_t file_type = info.format.as_float ? H5T_NATIVE_FLOAT : value_type;

  hsize_t shape[3];
  const int rank = field_shape(info.grid, shape);
  Handle space(H5Screate_simple(rank, shape, nullptr), H5Sclose, path,
               "cannot create the field dataspace");
  // Compression needs a chunked layout; one chunk per plane (2D: the whole field) keeps the
  // chunk count small and each chunk a dense run of the array.
  Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, "cannot create dataset properties");
  if (info.format.gzip_level > 0) {
    hsize_t chunk[3];
    for (int k = 0; k < rank; ++k) chunk[k] = shape[k];
    if (rank == 3) chunk[0] = 1;
    h5::check(H5Pset_chunk(create.get(), rank, chunk), path, "cannot set the chunk shape");
    h5::check(H5Pset_deflate(create.get(), static_cast<unsigned>(info.format.gzip_level)), path,
              "cannot enable gzip compression");
  }
  for (const auto& field : fields) {
    const std::string what = "cannot write dataset /" + field.name;
    if (field_components(field.name, info.grid.dims) > 1) {
      // A vector field: the nodes' shape and a trailing component axis, written whole.
      hsize_t vector_shape[4];
      const int vector_rank = field_shape(info.grid, field.name, vector_shape);
      Handle vector_space(H5Screate_simple(vector_rank, vector_shape, nullptr), H5Sclose, path,
                          what.c_str());
      Handle vector_create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, what.c_str());
      if (info.format.gzip_level > 0) {
        hsize_t chunk[4];
        for (int k = 0; k < vector_rank; ++k) chunk[k] = vector_shape[k];
        if (rank == 3) chunk[0] = 1;
        h5::check(H5Pset_chunk(vector_create.get(), vector_rank, chunk), path,
                  "cannot set the chunk shape");
        h5::check(H5Pset_deflate(vector_create.get(),
                                 static_cast<unsigned>(info.format.gzip_level)),
                  path, "cannot enable gzip compression");
      }
      Handle dataset(H5Dcreate2(file, field.name.c_str(), file_type, vector_space.get(),
                                H5P_DEFAULT, vector_create.get(), H5P_DEFAULT),
                     H5Dclose, path, what.c_str());
      if (!field.data) throw OutputError(path + ": vector field '" + field.name + "' has no data");
      h5::check(H5Dwrite(dataset.get(), value_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data),
                path, what.c_str());
      continue;
    }
    if (field.mask) {
      Handle dataset(H5Dcreate2(file, field.name.c_str(), H5T_STD_U8LE, space.get(),
                                H5P_DEFAULT, create.get(), H5P_DEFAULT),
                     H5Dclose, path, what.c_str());
      h5::check(H5Dwrite(dataset.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                         field.mask),
                path, what.c_str());
      continue;
    }
    Handle dataset(H5Dcreate2(file, field.name.c_str(), file_type, space.get(), H5P_DEFAULT,
                              create.get(), H5P_DEFAULT),
                   H5Dclose, path, what.c_str());
    if (!field.read) {
      h5::check(H5Dwrite(dataset.get(), value_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data),
                path, what.c_str());
      continue;
    }
    // Slab by slab along the slowest axis: each a contiguous run of the file.
    for (hsize_t first = 0; first < shape[0]; first += static_cast<hsize_t>(field.slab)) {
      const hsize_t count = std::min<hsize_t>(static_cast<hsize_t>(field.slab), shape[0] - first);
      const T* values = field.read(static_cast<std::int64_t>(first),
                                   static_cast<std::int64_t>(count));
      hsize_t start[3] = {first, 0, 0};
      hsize_t extent[3] = {count, shape[1], rank == 3 ? shape[2] : 1};
      Handle memory(H5Screate_simple(rank, extent, nullptr), H5Sclose, path, what.c_str());
      Handle selection(H5Scopy(space.get()), H5Sclose, path, what.c_str());
      h5::check(H5Sselect_hyperslab(selection.get(), H5S_SELECT_SET, start, nullptr, extent,
                                    nullptr),
                path, what.c_str());
      h5::check(H5Dwrite(dataset.get(), value_type, memory.get(), selection.get(), H5P_DEFAULT,
                         values),
                path, what.c_str());
    }
  }
  space.close(path, "cannot close the field dataspace");
}

template <typename T>
void write_file(const std::filesystem::path& temp, const std::string& path,
                const SnapshotInfo& info, const std::vector<FieldRef<T>>& fields) {
  Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, path,
              "cannot create the HDF5 file");
  write_fields(file.get(), path, info, fields);
  write_metadata(file.get(), path, info);
  file.close(path, "cannot flush and close the HDF5 file");
}

}  // namespace

template <typename T>
void begin_snapshot_file(const std::string& temp, const GridMeta& grid, SnapshotFormat format,
                         const std::vector<FieldRef<T>>& fields) {
  h5::silence_errors();
  SnapshotInfo info;
  info.grid = grid;
  info.format = format;
  check_request(temp, info, fields);
  try {
    Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, temp,
                "cannot create the HDF5 file");
    write_fields(file.get(), temp, info, fields);
    file.close(temp, "cannot flush and close the HDF5 file");
    sync_file(temp);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw;
  }
}

void complete_snapshot_file(const std::string& written, const std::string& path,
                            const SnapshotInfo& info, const std::string& what,
                            const std::function<void(hid_t)>& add) {
  write_file_atomic(path, [&](const std::filesystem::path& temp) {
    // Under write_file_atomic's own name, so that a failure below removes the file.
    std::error_code error;
    std::filesystem::rename(written, temp, error);
    if (error)
      throw OutputError(path + ": cannot rename " + what + " " + written + ": " +
                        error.message());
    Handle file(H5Fopen(temp.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path,
                "cannot reopen the HDF5 file");
    if (add) add(file.get());
    write_metadata(file.get(), path, info);
    file.close(path, "cannot flush and close the HDF5 file");
  });
}

template <typename T>
void finish_snapshot_file(const std::string& begun, const std::string& path,
                          const SnapshotInfo& info, const std::vector<FieldRef<T>>& fields) {
  h5::silence_errors();
  check_request(path, info, fields);
  complete_snapshot_file(begun, path, info, "the begun snapshot",
                         [&](hid_t file) { write_fields(file, path, info, fields); });
}

template <typename T>
void write_snapshot(const std::string& path, const SnapshotInfo& info,
                    const std::vector<FieldRef<T>>& fields) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  h5::silence_errors();
  check_request(path, info, fields);
  write_file_atomic(
      path, [&](const std::filesystem::path& temp) { write_file<T>(temp, path, info, fields); });
}

template void begin_snapshot_file<float>(const std::string&, const GridMeta&, SnapshotFormat,
                                         const std::vector<FieldRef<float>>&);
template void begin_snapshot_file<double>(const std::string&, const GridMeta&, SnapshotFormat,
                                          const std::vector<FieldRef<double>>&);
template void finish_snapshot_file<float>(const std::string&, const std::string&,
                                          const SnapshotInfo&, const std::vector<FieldRef<float>>&);
template void finish_snapshot_file<double>(const std::string&, const std::string&,
                                           const SnapshotInfo&,
                                           const std::vector<FieldRef<double>>&);
template void write_snapshot<float>(const std::string&, const SnapshotInfo&,
                                    const std::vector<FieldRef<float>>&);
template void write_snapshot<double>(const std::string&, const SnapshotInfo&,
                                     const std::vector<FieldRef<double>>&);

}  // namespace fdsolve::output
