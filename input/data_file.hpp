// Case values stored in HDF5 files ({file, dataset}): the checks the case reader makes, so that
// `fdsolve check` catches a bad file, and the read the solver makes when it fills a field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"

namespace fdsolve {

/// The shape a dataset must have for `grid`: [ny, nx] in 2D, [nz, ny, nx] in 3D (C order,
/// x fastest), boundary nodes included.
std::vector<std::int64_t> dataset_shape_for(const GridSpec& grid);

/// The shape of a dataset of one value per cell (problem.sampling: cells): the cells per axis,
/// points - 1 on an axis that is not periodic and points on a periodic one (the last cell
/// wraps), in the order of dataset_shape_for.
std::vector<std::int64_t> cell_dataset_shape_for(const GridSpec& grid);

/// What a per-cell dataset's shape check says it needs (check_dataset's `needs`).
inline constexpr const char* kCellsNeed = "problem.sampling: cells needs one value per cell,";

/// What is wrong with a dataset, if anything. `part` says which of the two keys is at fault:
/// the file (missing, not HDF5) or the dataset (missing, wrong rank, shape or type).
struct DatasetProblem {
  enum class Part { None, File, Dataset };
  Part part = Part::None;
  std::string reason;  // one line, e.g. "dataset /u of u0.h5 has shape [3, 4], the grid ..."

  explicit operator bool() const { return part != Part::None; }
};

/// Checks that `path` is an HDF5 file holding `dataset` with the rank and shape `shape` and a
/// 32- or 64-bit floating type. `label` names the file in the reasons (the text of the case
/// file rather than the resolved path). HDF5 prints nothing while it probes. `needs` opens the
/// shape's half of a reason ("the grid needs [9, 9]").
DatasetProblem check_dataset(const std::string& path, const std::string& label,
                             const std::string& dataset, const std::vector<std::int64_t>& shape,
                             const std::string& needs = "the grid needs");

/// Only that the file opens and holds `dataset`: the shape is checked later, once the shape
/// it must have is known (a per-cell dataset needs the boundary's periodic axes).
DatasetProblem check_dataset_readable(const std::string& path, const std::string& label,
                                      const std::string& dataset);

/// The values of a file Value (v.is_file()), read from v.file_path (v.file when that is
/// empty): dense, C-ordered with x fastest, converted to double (float data is widened
/// exactly; a float case narrows them again). Checks the dataset against `grid` as the reader
/// did, in case the file changed since the case was read; throws InputError with the reason,
/// naming the file by its resolved path.
std::vector<double> read_dataset_values(const Value& v, const GridSpec& grid);

/// The values of a per-cell file Value, checked against cell_dataset_shape_for(grid).
std::vector<double> read_cell_dataset_values(const Value& v, const GridSpec& grid);

/// The same without the shape check: all the dataset's values, whatever its shape (still
/// 32- or 64-bit floats). Prefer the overload with the grid, which cannot read short.
std::vector<double> read_dataset_values(const Value& v);

}  // namespace fdsolve
