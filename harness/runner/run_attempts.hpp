#pragma once
// Which items (a sweep's or a validation's cases, a book's notes) a run was pricing when its
// process died. An item that crashes the process (an abort, the out-of-memory killer) would kill
// every --resume, so each item's start and end are appended to `<results>.attempts` (JSON Lines):
// a start without an end is a death, unless a caught stop (Ctrl-C, SIGTERM) followed it in the
// same run. One short write per line, so a kill leaves at most a torn last line. Every run keeps
// this log through its case loop (case_loop.hpp), and --resume reads it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace elsbench {

// Read on --resume through the bounded reader: a larger log is refused (exit 2), a longer line is
// skipped like a torn one (a line is under 200 bytes).
inline constexpr std::uintmax_t kMaxAttemptsLogBytes = 256ULL << 20;
inline constexpr std::size_t kMaxAttemptsLineBytes = 4096;
// An item whose pricing took the process down this many times is recorded as failed by a resume,
// not priced again: once may be the machine's (the out-of-memory killer under another load),
// twice is the item's. Every run follows the one rule (case_loop.hpp).
inline constexpr int kDeathsToFail = 2;

class RunAttempts {
 public:
  // `results` empty: nothing is recorded (a run without a results file cannot be resumed).
  // `resume` false: a fresh run forgets earlier deaths.
  RunAttempts(const std::string& results, bool resume);
  ~RunAttempts();
  RunAttempts(const RunAttempts&) = delete;
  RunAttempts& operator=(const RunAttempts&) = delete;

  // The deaths the log beside `results` records now, read without writing to it.
  static std::map<std::string, int> recorded_deaths(const std::string& results);
  // Times the process died while pricing each item, as read when the run began.
  const std::map<std::string, int>& deaths() const { return deaths_; }
  void started(const std::string& id) { append("start", id); }
  void ended(const std::string& id) { append("end", id); }
  // A Ctrl-C or SIGTERM the run catches marks the log, so that the items then in flight count as
  // stopped, not as deaths (call when the run handles signals).
  void mark_stops();
  // The run finished: keep only the deaths of the items named (recorded as failed for them), so
  // that a later --resume does not run them again; no file when there are none.
  void settle(const std::map<std::string, int>& kept);
  std::string path() const { return path_; }

 private:
  void append(const char* event, const std::string& id);
  std::string path_;
  int fd_ = -1;
  bool marking_ = false;
  std::mutex mutex_;
  std::map<std::string, int> deaths_;
};

}  // namespace elsbench
