#include "platform/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "platform/file_io.hpp"
#include "platform/input_error.hpp"

namespace elsbench {

FileLock::FileLock(const std::string& path) : lock_path_(path + ".lock") {
  make_output_folder(path);
  // Never through a link, and only a regular file: the lock is removed at the end.
  fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  struct stat st {};
  if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd_);
    fd_ = -1;
    errno = EINVAL;
  }
  if (fd_ < 0) {
    const int error = errno;
    if (error == EISDIR || error == ELOOP || error == EINVAL || error == ENXIO)
      throw InputError(path, "<file>", "its lock " + lock_path_ + " is not a regular file (a folder, a link or a " +
                                           "device): remove it or name another results file");
    throw std::runtime_error("cannot create " + lock_path_ + ": " + std::strerror(error));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path, "<file>", "another elsbench process is writing it (" + lock_path_ + " is locked)");
  }
}

FileLock::~FileLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace elsbench
