// HDF5 snapshots: one file per saved state, holding the fields, their grid and the resolved
// case, written to a temporary name and renamed so a crash never leaves a partial file.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fdsolve::output {

/// Geometry of the node grid, as docs/numerics.md defines it.
struct GridMeta {
  int dims = 2;
  std::array<std::int64_t, 3> points{1, 1, 1};  // nodes per axis (points[2] == 1 in 2D)
  std::array<double, 3> origin{0, 0, 0};
  std::array<double, 3> spacing{1, 1, 1};
};

/// How the fields are stored: the run's precision or float, contiguous or gzip-compressed
/// chunks. Checkpoints keep the default (the run's precision, uncompressed): they must resume
/// bit-identically.
struct SnapshotFormat {
  bool as_float = false;  // store double fields as IEEE float (HDF5 converts while writing)
  int gzip_level = 0;     // 0 = contiguous, uncompressed; 1-9 = chunked with deflate

  bool operator==(const SnapshotFormat&) const = default;
};

struct SnapshotInfo {
  std::int64_t iteration = 0;
  double time = 0;  // physical time (heat); steady solves store the iteration number
  GridMeta grid;
  std::string config_yaml;  // the resolved case, stored as /config
  /// Further text datasets by name (e.g. a checkpoint's loop state); never read as fields.
  std::map<std::string, std::string> texts;
  SnapshotFormat format;
};

/// Values per node of the field `name` on a grid of `dims` axes: `dims` for the vector field
/// `flux` (-beta grad u, stored with a trailing component axis, [ny][nx][2] or [nz][ny][nx][3],
/// and listed in the .xmf as a Vector attribute), 1 for every other field.
int field_components(const std::string& name, int dims);

/// Whether the field `name` is a 0/1 mask, stored as one unsigned byte a node whatever the
/// run's precision (`fixed`, the held nodes: an eighth of a double field's bytes to write), and
/// listed in the .xmf as UChar.
bool stored_as_mask(const std::string& name);

/// A field to write: dense, C-ordered with x fastest ([ny][nx] or [nz][ny][nx]); a vector field
/// (field_components) with its components fastest, [node][component].
template <typename T>
struct FieldRef {
  FieldRef() = default;
  FieldRef(std::string field_name, const T* values) : name(std::move(field_name)), data(values) {}

  std::string name;
  const T* data = nullptr;
  /// Instead of `data` (contiguous layouts only, no compression): the field in slabs of at most
  /// `slab` layers of the slowest axis (rows in 2D, planes in 3D), so that no host copy of the
  /// whole field is needed: read(first, count) returns layers first .. first+count-1, dense,
  /// valid until the next call.
  std::function<const T*(std::int64_t first, std::int64_t count)> read;
  std::int64_t slab = 0;
  /// A mask field (stored_as_mask) gives its 0/1 values here, one byte a node, instead of `data`.
  const std::uint8_t* mask = nullptr;

  static FieldRef of_mask(std::string field_name, const std::uint8_t* values) {
    FieldRef f(std::move(field_name), nullptr);
    f.mask = values;
    return f;
  }
};

/// Writes `path` (via `path`.tmp and rename): datasets /<name> for every field, attributes
/// time, iteration, origin, spacing on the root, and /config. T is float or double.
template <typename T>
void write_snapshot(const std::string& path, const SnapshotInfo& info,
                    const std::vector<FieldRef<T>>& fields);

/// A snapshot written in two parts, the fields that do not change during a run ahead of the
/// state's (snapshot_ahead.hpp): begin_snapshot_file writes `fields` into a new file `temp`
/// (closed and flushed to disk when it returns; removed on failure); finish_snapshot_file adds
/// `fields` and the metadata of `info` to the begun file and moves it to `path` as
/// write_snapshot does (fsync, rename).
template <typename T>
void begin_snapshot_file(const std::string& temp, const GridMeta& grid, SnapshotFormat format,
                         const std::vector<FieldRef<T>>& fields);
template <typename T>
void finish_snapshot_file(const std::string& begun, const std::string& path,
                          const SnapshotInfo& info, const std::vector<FieldRef<T>>& fields);

/// The nodes one rank holds: offset and count per axis (x, y, z) in the global grid.
struct Hyperslab {
  std::array<std::int64_t, 3> offset{0, 0, 0};
  std::array<std::int64_t, 3> count{1, 1, 1};
};

/// A snapshot read back, values widened to double.
struct SnapshotData {
  SnapshotInfo info;
  std::vector<std::string> names;
  std::vector<std::vector<double>> fields;  // same order as names
  bool single_precision = false;            // stored as float
};

SnapshotData read_snapshot(const std::string& path);
/// The same with every field read over `box` only (checked to lie inside the grid): each field
/// holds the box's nodes, x fastest. A rank resuming a checkpoint reads its own nodes.
SnapshotData read_snapshot(const std::string& path, const Hyperslab& box);
/// The text datasets of a snapshot or checkpoint (/config among them) by name, without
/// reading any field.
std::map<std::string, std::string> read_snapshot_texts(const std::string& path);

}  // namespace fdsolve::output
