// Probing and reading HDF5 datasets named by case values, with HDF5's own error printing off.
#include "data_file.hpp"

#include <hdf5.h>

#include <filesystem>
#include <utility>

#include "case_reader.hpp"

namespace fdsolve {

namespace {
// Turns off HDF5's printing of its error stack for one probe and restores what was there.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// Owns an HDF5 id (negative: the call failed) and closes it with the matching function.
class Id {
 public:
  Id(hid_t id, herr_t (*closer)(hid_t)) : id_(id), closer_(closer) {}
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  Id(Id&& other) noexcept : id_(std::exchange(other.id_, -1)), closer_(other.closer_) {}
  Id& operator=(Id&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(closer_, other.closer_);
    return *this;
  }
  ~Id() {
    if (id_ >= 0) closer_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*closer_)(hid_t);
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

const char* axes_text(std::size_t rank) { return rank == 3 ? "[nz, ny, nx]" : "[ny, nx]"; }

// "32-bit integers", "16-bit floats", "strings": what a dataset holds, for messages.
std::string type_text(hid_t type) {
  const std::string bits = std::to_string(8 * H5Tget_size(type)) + "-bit ";
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return bits + (H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned integers" : "integers");
    case H5T_FLOAT:
      return bits + "floats";
    case H5T_STRING:
      return "strings";
    case H5T_COMPOUND:
      return "compound records";
    case H5T_ENUM:
      return "enumeration values";
    case H5T_ARRAY:
      return "arrays";
    case H5T_VLEN:
      return "variable-length sequences";
    case H5T_BITFIELD:
      return "bit fields";
    case H5T_OPAQUE:
      return "opaque data";
    case H5T_REFERENCE:
      return "references";
    default:
      return "values of an unknown type";
  }
}

// Opens `dataset` of the file at `path` into `file` and `data`, or says why it cannot.
DatasetProblem open_dataset(const std::string& path, const std::string& label,
                            const std::string& dataset, Id& file, Id& data) {
  using Part = DatasetProblem::Part;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return {Part::File, "cannot open " + label + ": no such file"};
  if (std::filesystem::is_directory(path, ec)) {
    return {Part::File, label + " is a directory, not an HDF5 file"};
  }
  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
  if (is_hdf5 < 0) return {Part::File, "cannot read " + label};
  if (is_hdf5 == 0) return {Part::File, label + " is not an HDF5 file"};
  file = Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) return {Part::File, "cannot open " + label + " as HDF5"};
  data = Id(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (data.ok()) return {};
  const Id group(H5Gopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Gclose);
  if (group.ok()) return {Part::Dataset, dataset + " of " + label + " is a group, not a dataset"};
  return {Part::Dataset, label + " has no dataset " + dataset};
}

DatasetProblem check_open_dataset(hid_t data, const std::string& label, const std::string& dataset,
                                  const std::vector<std::int64_t>& shape,
                                  const std::string& needs = "the grid needs") {
  using Part = DatasetProblem::Part;
  const std::string what = "dataset " + dataset + " of " + label;
  const Id space(H5Dget_space(data), H5Sclose);
  const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank < 0) return {Part::Dataset, "cannot read the shape of " + what};
  if (rank != static_cast<int>(shape.size())) {
    return {Part::Dataset, what + " has " + std::to_string(rank) + " dimensions, " + needs + " " +
                               std::to_string(shape.size()) + " (" + axes_text(shape.size()) + ")"};
  }
  std::vector<hsize_t> dims(shape.size());
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  const std::vector<std::int64_t> found(dims.begin(), dims.end());
  if (found != shape) {
    return {Part::Dataset, what + " has shape " + shape_text(found) + ", " + needs + " " +
                               shape_text(shape) + " (" + axes_text(shape.size()) + ")"};
  }
  const Id type(H5Dget_type(data), H5Tclose);
  if (!type.ok()) return {Part::Dataset, "cannot read the type of " + what};
  const std::size_t size = H5Tget_size(type.get());
  if (H5Tget_class(type.get()) != H5T_FLOAT || (size != 4 && size != 8)) {
    return {Part::Dataset,
            what + " holds " + type_text(type.get()) + ", expected 32- or 64-bit floats"};
  }
  return {};
}
}  // namespace

std::vector<std::int64_t> dataset_shape_for(const GridSpec& grid) {
  if (grid.dims == 3) return {grid.points[2], grid.points[1], grid.points[0]};
  return {grid.points[1], grid.points[0]};
}

std::vector<std::int64_t> cell_dataset_shape_for(const GridSpec& grid) {
  std::vector<std::int64_t> shape;
  for (int a = grid.dims - 1; a >= 0; --a)
    shape.push_back(grid.periodic[a] ? grid.points[a] : grid.points[a] - 1);
  return shape;
}

DatasetProblem check_dataset(const std::string& path, const std::string& label,
                             const std::string& dataset, const std::vector<std::int64_t>& shape,
                             const std::string& needs) {
  const QuietErrors quiet;
  Id file(-1, H5Fclose), data(-1, H5Dclose);
  if (auto problem = open_dataset(path, label, dataset, file, data)) return problem;
  return check_open_dataset(data.get(), label, dataset, shape, needs);
}

DatasetProblem check_dataset_readable(const std::string& path, const std::string& label,
                                      const std::string& dataset) {
  const QuietErrors quiet;
  Id file(-1, H5Fclose), data(-1, H5Dclose);
  return open_dataset(path, label, dataset, file, data);
}

namespace {
// read_dataset_values, checking the shape when `shape` is given (else only the type).
std::vector<double> read_values(const Value& v, const std::vector<std::int64_t>* shape,
                                const std::string& needs = "the grid needs") {
  const std::string& path = v.file_path.empty() ? v.file : v.file_path;
  if (!v.is_file()) throw InputError("read_dataset_values: the value is not read from a file");
  const QuietErrors quiet;
  Id file(-1, H5Fclose), data(-1, H5Dclose);
  if (const auto problem = open_dataset(path, path, v.dataset, file, data)) {
    throw InputError(problem.reason);
  }
  std::vector<std::int64_t> found;
  if (shape == nullptr) {
    const Id space(H5Dget_space(data.get()), H5Sclose);
    const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0) throw InputError("cannot read the shape of " + v.dataset + " of " + path);
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    found.assign(dims.begin(), dims.end());
    shape = &found;
  }
  if (const auto bad = check_open_dataset(data.get(), path, v.dataset, *shape, needs)) {
    throw InputError(bad.reason);
  }
  std::size_t count = 1;
  for (const auto n : *shape) count *= static_cast<std::size_t>(n);
  std::vector<double> values(count);
  if (H5Dread(data.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    throw InputError("cannot read dataset " + v.dataset + " of " + path);
  }
  return values;
}
}  // namespace

std::vector<double> read_dataset_values(const Value& v, const GridSpec& grid) {
  const auto shape = dataset_shape_for(grid);
  return read_values(v, &shape);
}

std::vector<double> read_dataset_values(const Value& v) { return read_values(v, nullptr); }

std::vector<double> read_cell_dataset_values(const Value& v, const GridSpec& grid) {
  const auto shape = cell_dataset_shape_for(grid);
  return read_values(v, &shape, kCellsNeed);
}

}  // namespace fdsolve
