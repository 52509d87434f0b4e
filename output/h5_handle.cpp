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
  if (!detail.empty()) message += " (HDF5: " + detail + ")";
  throw OutputError(message);
}

}  // namespace fdsolve::output::h5
