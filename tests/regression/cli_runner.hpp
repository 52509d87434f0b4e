// Runs the fdsolve binary as a user would and reads back what it wrote.
#pragma once

#include <filesystem>
#include <string>

#include "snapshot.hpp"

namespace fdsolve::testing {

/// A fresh directory under the system temp dir, removed at the end of the scope.
struct TempDir {
  std::filesystem::path path;
  TempDir();
  ~TempDir();
};

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

/// Runs `fdsolve <args>` (args are passed to the shell as written).
CliResult run_fdsolve(const std::string& args);

/// Path of an example case file.
std::string example(const std::string& name);

/// The snapshot with the highest iteration in an output directory.
output::SnapshotData last_snapshot(const std::filesystem::path& directory);

/// The values of field `name` of a snapshot.
const std::vector<double>& field(const output::SnapshotData& s, const std::string& name);

/// A whole file as text ("" if missing).
std::string read_text(const std::filesystem::path& p);

/// A number of <dir>/summary.json by key (the writer puts one "key": value per line); with
/// `within`, the first such key after the object of that name. Throws when absent.
double summary_number(const std::filesystem::path& dir, const std::string& key,
                      const std::string& within = {});

/// Every dataset of the two snapshots has the same bytes (values compared as bit patterns),
/// and the same iteration and time (doctest checks).
void check_bit_identical(const output::SnapshotData& a, const output::SnapshotData& b);

/// history.csv of `dir` without its wall-clock column, which differs from run to run.
std::string history_without_wall(const std::filesystem::path& dir);

/// Starts `fdsolve <args><out>` (`args` ends with `--output `; stderr to `log`), waits until
/// <out>/checkpoint.h5 exists (the loop is running), `delay` seconds more, sends SIGTERM and
/// waits for the process. Returns its wait status.
int signal_after_checkpoint(const std::string& args, const std::filesystem::path& out,
                            const std::filesystem::path& log, double delay = 0.0);

/// As signal_after_checkpoint, but waits until `log` holds `line` (a fixed string the loop logs
/// as it happens, unlike a file written in the background), then `delay` seconds more.
int signal_after_log_line(const std::string& args, const std::filesystem::path& out,
                          const std::filesystem::path& log, const std::string& line,
                          double delay);

/// The wall-clock seconds between history rows `from` and `from + 1` of <dir>/history.csv
/// (its last column): how long one iteration of that run took.
double iteration_seconds(const std::filesystem::path& dir, int from);

}  // namespace fdsolve::testing
