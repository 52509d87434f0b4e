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

}  // namespace fdsolve::testing
