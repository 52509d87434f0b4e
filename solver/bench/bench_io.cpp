// `fdsolve bench --io`: how close writing an HDF5 snapshot comes to the disk's bandwidth, with
// the disk's bandwidth measured the way `dd bs=8M conv=fdatasync` measures it, in the same
// directory and the same process (docs/performance.md, "Snapshot write speed").
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "bench.hpp"
#include "output_error.hpp"
#include "snapshot.hpp"

namespace fdsolve {

void write_io_json(const std::vector<IoRow>& rows, const std::string& path);

namespace {

namespace fs = std::filesystem;
using output::OutputError;

constexpr int kDefaultRepeats = 5;
// dd's block size in the comparison command; large enough that the number of write calls does
// not matter, small enough to be what a user would type.
constexpr std::size_t kChunkBytes = std::size_t{8} << 20;

[[noreturn]] void throw_errno(const std::string& what, const fs::path& path, int error) {
  throw OutputError(what + " '" + path.string() + "': " + std::strerror(error));
}

/// Removes the files a run writes when it leaves, however it leaves; a file that is not there
/// (already removed, or never written) is no error.
class RemoveOnExit {
 public:
  explicit RemoveOnExit(std::vector<fs::path> paths) : paths_(std::move(paths)) {}
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;
  ~RemoveOnExit() {
    for (const fs::path& p : paths_) {
      std::error_code ignored;  // a destructor cannot report; the rows already said what failed
      fs::remove(p, ignored);
    }
  }

 private:
  std::vector<fs::path> paths_;
};

/// Removes `path` between repeats, so that each repeat allocates its blocks afresh as a new
/// snapshot file does.
void remove_file(const fs::path& path) {
  if (::unlink(path.c_str()) != 0) throw_errno("cannot remove", path, errno);
}

std::int64_t size_of(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw OutputError("cannot stat '" + path.string() + "': " + ec.message());
  return static_cast<std::int64_t>(size);
}

/// What `dd if=<field> of=path bs=8M conv=fdatasync` does: create, write the bytes in 8 MiB
/// chunks, fdatasync, close.
void dd_style_write(const fs::path& path, const unsigned char* bytes, std::size_t count) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("cannot create", path, errno);
  int error = 0;
  const char* failed = nullptr;
  std::size_t written = 0;
  while (written < count && error == 0) {
    const std::size_t chunk = std::min(kChunkBytes, count - written);
    const ssize_t n = ::write(fd, bytes + written, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // 0 bytes for a non-empty request would loop forever: treat it as full
      error = n < 0 ? errno : ENOSPC;
      failed = "cannot write";
    } else {
      written += static_cast<std::size_t>(n);
    }
  }
  if (error == 0 && ::fdatasync(fd) != 0) {
    error = errno;
    failed = "cannot fdatasync";
  }
  // close can report a delayed write error, so its result counts too.
  if (::close(fd) != 0 && error == 0) {
    error = errno;
    failed = "cannot close";
  }
  if (error != 0) throw_errno(failed, path, error);
}

/// u = sin(pi x) sinh(pi y) / sinh(pi) on the unit square (a harmonic function), and along z a
/// cosine in 3D: a smooth solution-like field whose values have full mantissas, so that gzip
/// sees what it sees in real snapshots. Separable, so filling 67 MB takes milliseconds.
template <typename T>
std::vector<T> solution_like_field(int dims, const std::array<std::int64_t, 3>& n) {
  const auto axis = [](std::int64_t count, auto f) {
    std::vector<double> v(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
      v[static_cast<std::size_t>(i)] = f(count > 1 ? double(i) / double(count - 1) : 0.0);
    return v;
  };
  const double pi = std::numbers::pi;
  const auto fx = axis(n[0], [&](double x) { return std::sin(pi * x); });
  const auto fy = axis(n[1], [&](double y) { return std::sinh(pi * y) / std::sinh(pi); });
  const auto fz = axis(dims == 3 ? n[2] : 1, [&](double z) { return std::cos(0.5 * pi * z); });
  std::vector<T> u(static_cast<std::size_t>(n[0] * n[1] * (dims == 3 ? n[2] : 1)));
  std::size_t at = 0;
  for (double z : fz)
    for (double y : fy)
      for (double x : fx) u[at++] = static_cast<T>(x * y * z);
  return u;
}

/// A short case like the one a run stores as /config: the snapshot carries it, as a real one
/// does, so the metadata writes are part of the time.
std::string bench_config(int dims, const std::array<std::int64_t, 3>& n,
                         const std::string& precision) {
  std::string points = std::to_string(n[0]) + ", " + std::to_string(n[1]);
  std::string extent = "1.0, 1.0";
  if (dims == 3) {
    points += ", " + std::to_string(n[2]);
    extent += ", 1.0";
  }
  return "name: bench_io\nprecision: " + precision + "\ngrid:\n  points: [" + points +
         "]\n  extent: [" + extent +
         "]\nproblem:\n  equation: laplace\nstencil: " + (dims == 3 ? "7" : "5") +
         "\nboundary:\n  default: {type: dirichlet, value: 0}\n  y_max: {type: dirichlet, "
         "value: sin(pi*x)}\noutput:\n  every: 100\n";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

void print_header(std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-5s %-14s %10s %10s %10s %8s %7s\n", "bench", "variant", "MB",
                "median_ms", "best_ms", "GB/s", "%dd");
  out << line << std::flush;
}

void print_row(std::ostream& out, const IoRow& r) {
  char line[256];
  std::snprintf(line, sizeof line, "%-5s %-14s %10.3f %10.3f %10.3f %8.3f %7.1f\n", "io",
                r.variant.c_str(), static_cast<double>(r.file_bytes) / 1e6, r.median_ms, r.best_ms,
                r.gb_per_s, r.pct_dd);
  out << line << std::flush;
}

/// One way of writing the field: `write(path)` creates `path`; the bench times it and removes
/// the file after each repeat (untimed).
struct Variant {
  std::string name;
  fs::path path;
  std::function<void(const fs::path&)> write;
  std::vector<double> ms;
  std::int64_t file_bytes = 0;
};

template <typename T>
std::vector<IoRow> io_bench(const BenchOptions& o, const fs::path& dir, std::ostream& out) {
  const std::string precision = sizeof(T) == 4 ? "float" : "double";
  const int dims = o.dims == 3 ? 3 : 2;
  // Default: the 4097 x 2049 field of docs/performance.md's heat run (67 MB in double); in 3D
  // 203^3, the same bytes.
  std::array<std::int64_t, 3> n{4097, 2049, 1};
  if (o.size > 0)
    n = {o.size, o.size, dims == 3 ? o.size : 1};
  else if (dims == 3)
    n = {203, 203, 203};
  const int repeats = o.iterations > 0 ? o.iterations : kDefaultRepeats;

  const std::vector<T> field = solution_like_field<T>(dims, n);  // untimed, reused by every write
  const std::size_t field_bytes = field.size() * sizeof(T);
  output::SnapshotInfo info;
  info.iteration = 100;
  info.time = 100;
  info.grid.dims = dims;
  info.grid.points = n;
  for (int a = 0; a < dims; ++a)
    info.grid.spacing[static_cast<std::size_t>(a)] =
        1.0 / double(n[static_cast<std::size_t>(a)] - 1);
  info.config_yaml = bench_config(dims, n, precision);
  const std::vector<output::FieldRef<T>> fields{{"u", field.data()}};

  // Names carry the process id, so that two benches in one directory do not collide.
  const std::string stem = "fdsolve-bench-io." + std::to_string(::getpid());
  const auto snapshot = [&](output::SnapshotFormat format) {
    return [&info, &fields, format](const fs::path& path) {
      output::SnapshotInfo with_format = info;
      with_format.format = format;
      output::write_snapshot<T>(path.string(), with_format, fields);
    };
  };
  std::vector<Variant> variants;
  variants.push_back({"dd-style",
                      dir / (stem + ".dd"),
                      [&](const fs::path& path) {
                        dd_style_write(path, reinterpret_cast<const unsigned char*>(field.data()),
                                       field_bytes);
                      },
                      {},
                      0});
  variants.push_back({"snapshot", dir / (stem + ".h5"), snapshot({}), {}, 0});
  if (sizeof(T) == 8)
    variants.push_back({"snapshot-float",
                        dir / (stem + ".float.h5"),
                        snapshot({.as_float = true, .gzip_level = 0}),
                        {},
                        0});
  variants.push_back({"snapshot-gzip1",
                      dir / (stem + ".gzip1.h5"),
                      snapshot({.as_float = false, .gzip_level = 1}),
                      {},
                      0});

  std::vector<fs::path> written;
  for (const Variant& v : variants) {
    written.push_back(v.path);
    written.push_back(output::temp_path_for(v.path));  // write_snapshot's, should it be left
  }
  const RemoveOnExit cleanup(written);

  char what[200];
  std::snprintf(what, sizeof what, "%s field %lld x %lld%s%s, %.3f MB, %d repeats",
                precision.c_str(), static_cast<long long>(n[0]), static_cast<long long>(n[1]),
                dims == 3 ? " x " : "", dims == 3 ? std::to_string(n[2]).c_str() : "",
                double(field_bytes) / 1e6, repeats);
  out << "# io: " << fs::absolute(dir).lexically_normal().string() << ", " << what << "\n";
  print_header(out);

  const auto time_once = [](Variant& v) {
    const auto t0 = std::chrono::steady_clock::now();
    v.write(v.path);
    const auto t1 = std::chrono::steady_clock::now();
    v.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    v.file_bytes = size_of(v.path);
    remove_file(v.path);
  };
  // An untimed write first: on the development machine the first write of a process took two to
  // four times as long as the next ones (97-154 against 37-42 ms).
  time_once(variants.front());
  variants.front().ms.clear();
  // The uncompressed variants take turns, so that a change in the disk's speed during the run
  // (other writers, the device's cache) falls on all of them alike. gzip runs alone after them:
  // the write that followed its second of compression took 50 ms more (measured: 90 instead of
  // 40 ms, whichever variant came next), which would have been charged to one of the others.
  const auto is_gzip = [](const Variant& v) { return v.name == "snapshot-gzip1"; };
  for (int rep = 0; rep < repeats; ++rep)
    for (Variant& v : variants)
      if (!is_gzip(v)) time_once(v);
  for (Variant& v : variants)
    if (is_gzip(v))
      for (int rep = 0; rep < repeats; ++rep) time_once(v);

  std::vector<IoRow> rows;
  double dd_gb_per_s = 0;
  for (const Variant& v : variants) {
    IoRow r;
    r.variant = v.name;
    r.precision = precision;
    r.dims = dims;
    r.points = n;
    r.field_bytes = static_cast<std::int64_t>(field_bytes);
    r.file_bytes = v.file_bytes;
    r.repeats = repeats;
    r.median_ms = median(v.ms);
    r.best_ms = *std::min_element(v.ms.begin(), v.ms.end());
    // bytes / ms / 1e6 = GB/s (1e9 bytes per second)
    r.gb_per_s = double(v.file_bytes) / r.median_ms / 1e6;
    if (v.name == "dd-style") dd_gb_per_s = r.gb_per_s;  // the first row
    r.dd_gb_per_s = dd_gb_per_s;
    r.pct_dd = 100.0 * r.gb_per_s / dd_gb_per_s;
    print_row(out, r);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

std::vector<IoRow> run_io_bench(const BenchOptions& options, std::ostream& out) {
  const fs::path dir = options.dir.empty() ? fs::path(".") : fs::path(options.dir);
  // Refused here, before any row: a directory that cannot be written (permissions, missing,
  // read-only) is one OutputError naming it.
  output::check_directory_writable(dir);
  const std::vector<IoRow> rows = options.precision == "float"
                                      ? io_bench<float>(options, dir, out)
                                      : io_bench<double>(options, dir, out);
  if (!options.json_path.empty()) write_io_json(rows, options.json_path);
  return rows;
}

}  // namespace fdsolve
