// Helpers of the tests of continued runs (test_extend_runs.cpp, test_extend_steady.cpp):
// compare a continued output directory with that of one uninterrupted run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "snapshot.hpp"

namespace fdsolve::testing {

/// <dir>/checkpoint.h5 read back.
output::SnapshotData read_checkpoint_file(const std::filesystem::path& dir);

/// Writes `yaml` to <dir>/<name> (creating dir) and returns the path.
std::filesystem::path write_case(const std::filesystem::path& dir, const std::string& name,
                                 const std::string& yaml);

/// The file name of snapshot `iteration` of case `name` (name_<iteration:08d>.h5).
std::string snapshot_name(const std::string& name, std::int64_t iteration);

/// Every file of a directory with its bytes: equal states mean nothing was written.
using DirectoryState = std::map<std::string, std::string>;
DirectoryState directory_state(const std::filesystem::path& dir);

/// `continued` holds the output of `whole`, bit for bit: every snapshot of `whole` with the same
/// fields (bit patterns), iteration and time, the same .xmf and history (wall clock aside), and
/// `fdsolve compare continued whole --rtol 0 --atol 0` passes once the snapshot of
/// `earlier_end` (the first session's last state, which a continued run leaves unlisted; -1:
/// none) is removed; no other file differs in name. With `history_columns` > 0 only that many
/// leading columns of the history are compared.
void check_same_output(const std::filesystem::path& continued, const std::filesystem::path& whole,
                       std::int64_t earlier_end, int history_columns = 0);

/// The first `columns` columns of every line of <dir>/history.csv.
std::string history_head(const std::filesystem::path& dir, int columns);

}  // namespace fdsolve::testing
