#pragma once
// Ctrl-C or a kill during a run (a sweep, a book). The results file on disk is always whole: it is
// replaced atomically as items finish. So a run may stop at once when told to, unless it is
// replacing that file at that moment, in which case it stops as soon as the new file is in place.
#include <string>

namespace elsbench {

// Installs SIGINT and SIGTERM handlers for its lifetime. On a signal the process prints
// `message` on stderr and exits with 128 + the signal number. A guard that stops `gracefully`
// (a book, whose notes finished since its last write would be lost) asks the run to stop instead
// (request_stop): the run saves what it priced and ends; a second signal exits at once.
class RunSignalGuard {
 public:
  explicit RunSignalGuard(const std::string& message, bool gracefully = false);
  ~RunSignalGuard();
  RunSignalGuard(const RunSignalGuard&) = delete;
  RunSignalGuard& operator=(const RunSignalGuard&) = delete;
};

// The signal a graceful guard caught and left to the run, or 0; the run then ends with
// stop_on_pending_signal(), which prints the guard's message and exits with 128 + the signal.
int pending_signal();
[[noreturn]] void stop_on_pending_signal();

// A caught stop also appends `line` to the open file `fd` (a run's attempts log: the items in
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
