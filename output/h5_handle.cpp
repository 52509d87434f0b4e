// HDF5 error handling for output/: silence the automatic stack printing once, and turn the
// current error stack into a one-line message.
#include "h5_handle.hpp"

#include <mutex>

#include "output_error.hpp"

namespace fdsolve::output::h5 {
namespace {

// Walked upward, the first entry is the most specific failure (e.g. the errno of an open).
herr_t take_innermost(unsigned n, const H5E_error2_t* error, void* client) {
  auto* message = static_cast<std::string*>(client);
  if (n == 0 && error->desc != nullptr) *message = error->desc;
  return 0;
}

// HDF5's system-call failures read "file write failed: time = <ctime with a newline>,
// filename = ..., errno = 28, error message = 'No space left on device', buf = ...": keep the
// summary and the system's message, on one line.
std::string tidy(const std::string& desc) {
  const std::string key = "error message = '";
  const auto at = desc.find(key);
  const auto end = at == std::string::npos ? at : desc.find('\'', at + key.size());
  std::string text = desc;
  if (end != std::string::npos) {
    const auto colon = desc.find(':');
    const std::string reason = desc.substr(at + key.size(), end - at - key.size());
    text = (colon < at ? desc.substr(0, colon) + ": " : std::string()) + reason;
  }
  for (char& ch : text) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return text;
}

// HDF5 1.10 (Debian 12) frees a file whose close failed (e.g. the flush of a snapshot on a full
// disk) but keeps its id, and its exit handler then closes it again and crashes (HDFGroup/hdf5
// #2291, fixed in 1.14). fdsolve closes every file it opens itself, so the handler has nothing
// to do: turn it off before HDF5 initialises (H5dont_atexit does not initialise the library).
const bool kNoExitHandler = H5dont_atexit() >= 0;

}  // namespace

void silence_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

void fail(const std::string& path, const std::string& what) {
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, take_innermost, &detail);
  H5Eclear2(H5E_DEFAULT);
  std::string message = path + ": " + what;
  if (!detail.empty()) message += " (HDF5: " + tidy(detail) + ")";
  throw OutputError(message);
}

}  // namespace fdsolve::output::h5
