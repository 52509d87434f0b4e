// Private to output/: an owning wrapper for HDF5 ids and the check that turns a failed HDF5
// call into OutputError (with the innermost message of HDF5's error stack).
#pragma once

#include <hdf5.h>

#include <string>

namespace fdsolve::output::h5 {

/// Turns off HDF5's printing of its error stack to stderr; failures become exceptions instead.
void silence_errors();

/// Throws OutputError "<path>: <what>: <HDF5's innermost message>".
[[noreturn]] void fail(const std::string& path, const std::string& what);

/// Throws via fail() when `status` is negative (HDF5's convention for failure).
inline void check(herr_t status, const std::string& path, const char* what) {
  if (status < 0) fail(path, what);
}

/// Owns an hid_t and closes it with the matching H5?close function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle() = default;
  /// Takes `id`, throwing (with path and what) if the call that produced it failed.
  Handle(hid_t id, Closer closer, const std::string& path, const char* what)
      : id_(id), closer_(closer) {
    if (id_ < 0) fail(path, what);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = -1;
    }
    return *this;
  }
  ~Handle() { reset(); }

  hid_t get() const { return id_; }

  /// Closes now and reports failure: closing a file flushes it, so its status matters.
  void close(const std::string& path, const char* what) {
    const hid_t id = id_;
    id_ = -1;
    if (id >= 0) check(closer_(id), path, what);
  }

 private:
  void reset() {
    if (id_ >= 0) closer_(id_);
    id_ = -1;
  }

  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

}  // namespace fdsolve::output::h5
