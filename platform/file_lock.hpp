#pragma once
// An exclusive lock on an output file for the life of a writer (a sweep, a resume): a second
// writer of the same file is refused instead of interleaving with the first.
#include <string>

namespace elsbench {

class FileLock {
 public:
  // Locks <path>.lock (created if absent); throws InputError naming the file when another process
  // holds it.
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace elsbench
