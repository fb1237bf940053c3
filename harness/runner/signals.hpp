#pragma once
// Ctrl-C or a kill during a sweep. The results file on disk is always whole: it is replaced
// atomically after every case. So a sweep may stop at once when told to, unless it is replacing
// that file at that moment, in which case it stops as soon as the new file is in place.
#include <string>

namespace elsbench {

// Installs SIGINT and SIGTERM handlers for its lifetime. On a signal the process prints
// `message` on stderr and exits with 128 + the signal number.
class SweepSignalGuard {
 public:
  explicit SweepSignalGuard(const std::string& message);
  ~SweepSignalGuard();
  SweepSignalGuard(const SweepSignalGuard&) = delete;
  SweepSignalGuard& operator=(const SweepSignalGuard&) = delete;
};

// A caught stop (the user's Ctrl-C or SIGTERM) first replaces `path` with `content`, atomically:
// the sweep keeps there its results file as it should read after an interruption (the case that
// was running not counted as a crash). Call only inside a FileWriteSection; an empty path: none.
void set_stop_record(const std::string& path, const std::string& content);

// A caught stop also appends `line` to the open file `fd` (a book's attempts log: the notes in
// flight were stopped, not killed); fd -1: none.
void set_stop_append(int fd, const std::string& line);

// While one is alive, a stop waits until it ends (around the replacement of the results file).
class FileWriteSection {
 public:
  FileWriteSection();
  ~FileWriteSection();
  FileWriteSection(const FileWriteSection&) = delete;
  FileWriteSection& operator=(const FileWriteSection&) = delete;
};

}  // namespace elsbench
