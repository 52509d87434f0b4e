// Reads a snapshot back (for compare, tests and initial-state files): every root dataset but
// /config as a field widened to double, the grid attributes and the stored case text.
#include <hdf5.h>

#include <algorithm>

#include "h5_handle.hpp"
#include "output_error.hpp"
#include "snapshot.hpp"

namespace fdsolve::output {
namespace {

using h5::Handle;

bool has_attribute(hid_t object, const char* name, const std::string& path) {
  const htri_t exists = H5Aexists(object, name);
  if (exists < 0) h5::fail(path, std::string("cannot look up attribute ") + name);
  return exists > 0;
}

// Reads up to `capacity` values of a scalar or 1-D attribute, converted to `memory_type`.
hsize_t read_attribute(hid_t object, const std::string& path, const char* name, hid_t memory_type,
                       void* values, hsize_t capacity) {
  const std::string what = std::string("cannot read attribute ") + name;
  Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, path, what.c_str());
  Handle space(H5Aget_space(attribute.get()), H5Sclose, path, what.c_str());
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 1 || static_cast<hsize_t>(count) > capacity) {
    throw OutputError(path + ": attribute " + name + " has " + std::to_string(count) +
                      " values, expected 1 to " + std::to_string(capacity));
  }
  h5::check(H5Aread(attribute.get(), memory_type, values), path, what.c_str());
  return static_cast<hsize_t>(count);
}

std::string read_string(hid_t file, const std::string& path, const char* name) {
  const std::string what = std::string("cannot read dataset /") + name;
  Handle dataset(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, path, what.c_str());
  Handle stored(H5Dget_type(dataset.get()), H5Tclose, path, what.c_str());
  if (H5Tget_class(stored.get()) != H5T_STRING)
    throw OutputError(path + ": " + what + ": not text");
  Handle space(H5Dget_space(dataset.get()), H5Sclose, path, what.c_str());
  if (H5Sget_simple_extent_npoints(space.get()) != 1) {
    throw OutputError(path + ": " + what + ": expected a single string");
  }
  Handle memory(H5Tcopy(H5T_C_S1), H5Tclose, path, what.c_str());
  // HDF5 converts no text between encodings: read in the stored one (UTF-8 for our files).
  h5::check(H5Tset_cset(memory.get(), H5Tget_cset(stored.get())), path, what.c_str());
  const htri_t variable = H5Tis_variable_str(stored.get());
  if (variable < 0) h5::fail(path, what);
  if (variable > 0) {
    h5::check(H5Tset_size(memory.get(), H5T_VARIABLE), path, what.c_str());
    char* text = nullptr;
    h5::check(H5Dread(dataset.get(), memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text), path,
              what.c_str());
    std::string result = text != nullptr ? text : "";
    H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, &text);
    return result;
  }
  // Fixed length: HDF5 may pad with NULs or spaces; a NUL-terminated copy ends at the text.
  const size_t size = H5Tget_size(stored.get());
  h5::check(H5Tset_size(memory.get(), size + 1), path, what.c_str());
  h5::check(H5Tset_strpad(memory.get(), H5T_STR_NULLTERM), path, what.c_str());
  std::string buffer(size + 1, '\0');
  h5::check(H5Dread(dataset.get(), memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
            path, what.c_str());
  buffer.resize(buffer.find('\0'));
  return buffer;
}

bool is_text_dataset(hid_t file, const std::string& path, const std::string& name) {
  const std::string what = "cannot read dataset /" + name;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, path, what.c_str());
  Handle type(H5Dget_type(dataset.get()), H5Tclose, path, what.c_str());
  return H5Tget_class(type.get()) == H5T_STRING;
}

std::vector<std::string> root_datasets(hid_t file, const std::string& path) {
  H5G_info_t group{};
  h5::check(H5Gget_info(file, &group), path, "cannot list the root group");
  std::vector<std::string> names;
  for (hsize_t i = 0; i < group.nlinks; ++i) {
    const ssize_t length =
        H5Lget_name_by_idx(file, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (length < 0) h5::fail(path, "cannot list the root group");
    std::string name(static_cast<size_t>(length) + 1, '\0');
    H5Lget_name_by_idx(file, ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(static_cast<size_t>(length));
    Handle object(H5Oopen(file, name.c_str(), H5P_DEFAULT), H5Oclose, path,
                  ("cannot open /" + name).c_str());
    if (H5Iget_type(object.get()) == H5I_DATASET) names.push_back(name);
  }
  return names;
}

void read_attributes(hid_t file, const std::string& path, SnapshotInfo& info) {
  if (has_attribute(file, "time", path)) {
    read_attribute(file, path, "time", H5T_NATIVE_DOUBLE, &info.time, 1);
  }
  if (has_attribute(file, "iteration", path)) {
    read_attribute(file, path, "iteration", H5T_NATIVE_INT64, &info.iteration, 1);
  }
  GridMeta& grid = info.grid;
  if (has_attribute(file, "dims", path)) {
    read_attribute(file, path, "dims", H5T_NATIVE_INT, &grid.dims, 1);
  }
  if (has_attribute(file, "origin", path)) {
    read_attribute(file, path, "origin", H5T_NATIVE_DOUBLE, grid.origin.data(), 3);
  }
  if (has_attribute(file, "spacing", path)) {
    read_attribute(file, path, "spacing", H5T_NATIVE_DOUBLE, grid.spacing.data(), 3);
  }
}

int probe_rank(hid_t file, const std::string& path, const std::string& name) {
  const std::string what = "cannot read dataset /" + name;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, path, what.c_str());
  Handle space(H5Dget_space(dataset.get()), H5Sclose, path, what.c_str());
  return H5Sget_simple_extent_ndims(space.get());
}

// Reads one field (or its nodes in `box`), checks its shape against the grid, and returns it
// as doubles.
std::vector<double> read_field(hid_t file, const std::string& path, const std::string& name,
                               GridMeta& grid, bool first, bool& single_precision,
                               const Hyperslab* box) {
  const std::string what = "cannot read dataset /" + name;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, path, what.c_str());
  Handle space(H5Dget_space(dataset.get()), H5Sclose, path, what.c_str());
  hsize_t shape[4] = {1, 1, 1, 1};
  const int stored_rank = H5Sget_simple_extent_ndims(space.get());
  // A vector field (flux) has a trailing component axis of the grid's dims; its nodes are the
  // leading axes, read with every component ([node][component]).
  const int components = field_components(name, grid.dims);
  const int rank = components > 1 ? stored_rank - 1 : stored_rank;
  if (rank < 2 || rank > 3) {
    throw OutputError(path + ": dataset /" + name + " has rank " + std::to_string(stored_rank) +
                      (components > 1 ? ", expected 3 or 4 (a vector field)" : ", expected 2 or 3"));
  }
  H5Sget_simple_extent_dims(space.get(), shape, nullptr);
  if (components > 1 && shape[rank] != static_cast<hsize_t>(components))
    throw OutputError(path + ": dataset /" + name + " has " + std::to_string(shape[rank]) +
                      " components, expected " + std::to_string(components));
  std::array<std::int64_t, 3> points{1, 1, 1};
  for (int k = 0; k < rank; ++k) points[k] = static_cast<std::int64_t>(shape[rank - 1 - k]);
  // Node counts are not stored as attributes: the first field's shape gives them.
  if (first) grid.points = points;
  if (rank != grid.dims || points != grid.points) {
    throw OutputError(path + ": dataset /" + name + " does not have the grid's shape");
  }
  Handle type(H5Dget_type(dataset.get()), H5Tclose, path, what.c_str());
  single_precision = H5Tget_class(type.get()) == H5T_FLOAT && H5Tget_size(type.get()) == 4;
  if (!box) {
    std::vector<double> values(shape[0] * shape[1] * (rank == 3 ? shape[2] : 1) *
                               static_cast<hsize_t>(components));
    h5::check(
        H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
        path, what.c_str());
    return values;
  }
  // HDF5 orders the axes slowest first: [z][y][x].
  hsize_t start[4] = {0, 0, 0, 0}, count[4] = {1, 1, 1, 1};
  count[rank] = static_cast<hsize_t>(components);
  for (int k = 0; k < rank; ++k) {
    if (box->offset[k] < 0 || box->count[k] < 0 || box->offset[k] + box->count[k] > points[k])
      throw OutputError(path + ": dataset /" + name + ": the requested nodes lie outside it");
    start[rank - 1 - k] = static_cast<hsize_t>(box->offset[k]);
    count[rank - 1 - k] = static_cast<hsize_t>(box->count[k]);
  }
  h5::check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
            path, what.c_str());
  Handle memory(H5Screate_simple(stored_rank, count, nullptr), H5Sclose, path, what.c_str());
  std::vector<double> values(count[0] * count[1] * (rank == 3 ? count[2] : 1) *
                             static_cast<hsize_t>(components));
  h5::check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                    values.data()),
            path, what.c_str());
  return values;
}

/// read_snapshot, every field over `box` when it is not null.
SnapshotData read_file(const std::string& path, const Hyperslab* box) {
  h5::silence_errors();
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, path,
              "cannot open the HDF5 file");
  SnapshotData data;
  read_attributes(file.get(), path, data.info);
  if (data.info.grid.dims != 2 && data.info.grid.dims != 3) {
    throw OutputError(path + ": attribute dims must be 2 or 3");
  }
  // A plain HDF5 file (e.g. an initial state written by a script) has no dims attribute.
  const bool has_dims = has_attribute(file.get(), "dims", path);
  if (H5Lexists(file.get(), "config", H5P_DEFAULT) > 0) {
    data.info.config_yaml = read_string(file.get(), path, "config");
  }
  for (const std::string& name : root_datasets(file.get(), path)) {
    if (!is_text_dataset(file.get(), path, name))
      data.names.push_back(name);
    else if (name != "config")
      data.info.texts[name] = read_string(file.get(), path, name.c_str());
  }
  data.single_precision = std::any_of(data.names.begin(), data.names.end(),
                                      [](const std::string& n) { return !stored_as_mask(n); });
  for (const std::string& name : data.names) {
    const bool first = data.fields.empty();
    if (first && !has_dims) {
      data.info.grid.dims = probe_rank(file.get(), path, name);
    }
    bool single = false;
    data.fields.push_back(
        read_field(file.get(), path, name, data.info.grid, first, single, box));
    // A mask's bytes say nothing of the run's precision.
    if (!stored_as_mask(name)) data.single_precision = data.single_precision && single;
  }
  file.close(path, "cannot close the HDF5 file");
  return data;
}

}  // namespace

SnapshotData read_snapshot(const std::string& path) { return read_file(path, nullptr); }

std::map<std::string, std::string> read_snapshot_texts(const std::string& path) {
  h5::silence_errors();
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, path,
              "cannot open the HDF5 file");
  std::map<std::string, std::string> texts;
  for (const std::string& name : root_datasets(file.get(), path))
    if (is_text_dataset(file.get(), path, name))
      texts[name] = read_string(file.get(), path, name.c_str());
  file.close(path, "cannot close the HDF5 file");
  return texts;
}

SnapshotData read_snapshot(const std::string& path, const Hyperslab& box) {
  return read_file(path, &box);
}

}  // namespace fdsolve::output
