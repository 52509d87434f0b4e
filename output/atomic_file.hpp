// Crash-safe file replacement: write to `<path>.tmp.<pid>` in the same directory, fsync, rename.
// A reader (ParaView, a script polling the directory) never sees a partial file.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace fdsolve::output {

/// The temporary name used for `target`: same directory, so the rename stays on one filesystem.
std::filesystem::path temp_path_for(const std::filesystem::path& target);

/// Calls `write(temp_path)`, which must create and close the file at temp_path, then fsyncs it
/// and renames it over `target`. On any exception the temporary file is removed and the
/// exception propagates (I/O failures here are OutputError); `target` is left untouched.
void write_file_atomic(const std::filesystem::path& target,
                       const std::function<void(const std::filesystem::path&)>& write);

/// Flushes the file `path` to disk (fsync); throws OutputError naming it.
void sync_file(const std::filesystem::path& path);

/// Creates, writes one byte to, and removes a probe file in `directory`, so that an output
/// directory that cannot be written (permissions, a read-only or full filesystem) is reported
/// before a run computes anything. Throws OutputError naming the directory.
void check_directory_writable(const std::filesystem::path& directory);

/// write_file_atomic for a text file whose whole content is `text`.
void write_text_atomic(const std::filesystem::path& target, std::string_view text);

}  // namespace fdsolve::output
