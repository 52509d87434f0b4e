// `fdsolve bench`: copy bandwidth, then every kernel variant's sweep throughput, in one process
// (docs/commands.md, "bench").
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace fdsolve {

struct BenchOptions {
  std::string backend;    // "cuda", "cpu", or empty: every backend available
  int dims = 0;           // 2, 3, or 0: both
  std::int64_t size = 0;  // nodes per axis; 0: the backend's default for the dimension
  std::string precision;  // "float", "double", or empty: both
  std::string kernel;     // one variant name, or empty: all
  int iterations = 0;     // sweeps timed per row; 0: chosen from the size
  int norm_every = -1;    // sweeps between checked sweeps; 0 = none; -1: rows for 0 and 1
  int points = 27;        // 3D stencil points (7, 19 or 27)
  int steps = 8;          // sweeps per blocked pass in the temporal-blocking rows
  std::string json_path;  // write the rows as a JSON array here when not empty
  bool multigrid = false;  // the multigrid rows (work units) instead of the sweep variants
  int threads = 0;        // --threads: CPU threads, 0: automatic (ThreadPolicy)
  bool sizes = false;     // the size ladder (or just --size): per rung the chosen default and
                          // the best variant
  bool io = false;        // snapshot write speed beside a dd-style write (bench_io.cpp)
  std::string dir = ".";  // where --io writes its files: the working directory by default
};

struct BenchRow {
  std::string backend;
  std::string kernel;
  int dims = 2;
  std::string precision;
  std::int64_t size = 0;
  int iterations = 0;
  double gcells_per_s = 0;
  double gb_per_s = 0;  // gcells_per_s * 2 * sizeof(value)
  double pct_copy = 0;  // gb_per_s over the copy bandwidth measured in the same run, in %
  int norm_every = 0;
  double copy_gb_per_s = 0;
  // The size ladder's rows (--sizes) only:
  std::string role;         // "default", "best", "default+best", or "" (another variant)
  int points = 0;           // stencil class: 5, 7 or 27
  double us_per_sweep = 0;  // recorded blocks of sweeps replayed, launch overhead included
  std::string reason;       // why the default was chosen (kernel_choice.hpp)
};

/// `fdsolve bench --sizes`: every variant over the size ladder (kernel_ladder.hpp); prints per
/// rung the chosen default and the best; returns every row (and writes them to --json).
std::vector<BenchRow> run_size_bench(const BenchOptions& options, std::ostream& out);

/// One row of `fdsolve bench --io`: one way of writing the field to a file in --dir, timed over
/// repeats (docs/commands.md, "bench").
struct IoRow {
  std::string variant;    // "dd-style", "snapshot", "snapshot-float", "snapshot-gzip1"
  std::string precision;  // the field's: "float" or "double"
  int dims = 2;
  std::array<std::int64_t, 3> points{1, 1, 1};  // nodes per axis
  std::int64_t field_bytes = 0;  // the field in memory
  std::int64_t file_bytes = 0;   // the file written: fewer for float and gzip, metadata added
  int repeats = 0;
  double median_ms = 0;
  double best_ms = 0;
  double gb_per_s = 0;  // file_bytes over the median time
  double pct_dd = 0;    // gb_per_s over the dd-style row's, in %
  double dd_gb_per_s = 0;
};

/// `fdsolve bench --io`: writes the field with POSIX writes + fdatasync (as `dd bs=8M
/// conv=fdatasync` does) and as HDF5 snapshots (the uncompressed ones taking turns, gzip after
/// them), in options.dir, after one untimed write; prints the table and returns the rows (and
/// writes them to --json). Every file it writes is removed, also when it fails; an unwritable
/// directory throws output::OutputError before anything is printed.
std::vector<IoRow> run_io_bench(const BenchOptions& options, std::ostream& out);

/// Runs the benchmark, printing the table to `out` as rows complete; returns the rows.
std::vector<BenchRow> run_bench(const BenchOptions& options, std::ostream& out);

}  // namespace fdsolve
