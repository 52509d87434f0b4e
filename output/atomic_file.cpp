// Temporary-name-then-rename file writing (see atomic_file.hpp), with POSIX calls because the
// standard library offers no fsync.
#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "output_error.hpp"

namespace fdsolve::output {
namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& path,
                              int error) {
  throw OutputError(what + " '" + path.string() + "': " + std::strerror(error));
}

// Closes the descriptor on every path out of the function that opened it.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closing can report a delayed write error, so the success path closes explicitly.
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

void fsync_path(const std::filesystem::path& path, bool directory) {
  FileDescriptor fd(::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY));
  if (fd.get() < 0) throw_errno("cannot open for fsync", path, errno);
  // Some filesystems refuse fsync on directories (EINVAL); the rename itself is still atomic.
  if (::fsync(fd.get()) != 0 && !(directory && errno == EINVAL)) {
    throw_errno("cannot fsync", path, errno);
  }
}

}  // namespace

std::filesystem::path temp_path_for(const std::filesystem::path& target) {
  std::filesystem::path temp = target;
  temp += ".tmp." + std::to_string(::getpid());
  return temp;
}

void write_file_atomic(const std::filesystem::path& target,
                       const std::function<void(const std::filesystem::path&)>& write) {
  const std::filesystem::path temp = temp_path_for(target);
  try {
    write(temp);
    fsync_path(temp, false);
    if (std::rename(temp.c_str(), target.c_str()) != 0) {
      throw_errno("cannot rename '" + temp.string() + "' to", target, errno);
    }
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    throw;
  }
  // Makes the rename itself durable; the file is complete either way.
  std::filesystem::path parent = target.parent_path();
  fsync_path(parent.empty() ? std::filesystem::path(".") : parent, true);
}

void sync_file(const std::filesystem::path& path) { fsync_path(path, false); }

void check_directory_writable(const std::filesystem::path& directory) {
  std::filesystem::path probe = directory / ".fdsolve-write-test";
  probe += "." + std::to_string(::getpid());
  const auto refuse = [&](int error) {
    throw OutputError("cannot write in output directory '" + directory.string() +
                      "': " + std::strerror(error));
  };
  FileDescriptor fd(::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) refuse(errno);
  int error = 0;
  if (::write(fd.get(), "\n", 1) != 1) error = errno != 0 ? errno : EIO;
  if (fd.close() != 0 && error == 0) error = errno;
  ::unlink(probe.c_str());
  if (error != 0) refuse(error);
}

void write_text_atomic(const std::filesystem::path& target, std::string_view text) {
  write_file_atomic(target, [text](const std::filesystem::path& temp) {
    FileDescriptor fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) throw_errno("cannot create", temp, errno);
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(fd.get(), text.data() + written, text.size() - written);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw_errno("cannot write", temp, errno);
      }
      written += static_cast<std::size_t>(n);
    }
    if (fd.close() != 0) throw_errno("cannot close", temp, errno);
  });
}

}  // namespace fdsolve::output
