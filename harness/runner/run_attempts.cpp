#include "harness/runner/run_attempts.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/runner/signals.hpp"
#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"

namespace elsbench {
namespace {

std::string line(const char* event, const std::string& id, int times = 1) {
  nlohmann::json j = {{"event", event}, {"id", id}};
  if (times != 1) j["times"] = times;
  return j.dump() + "\n";
}

// Starts minus ends per note; a torn or foreign line (the kill came mid-write) is skipped. Each
// run begins with a "run" line; a "stop" line (a caught Ctrl-C or SIGTERM) closes the starts of
// its run that had not ended: those notes were stopped, not killed.
std::map<std::string, int> read_deaths(const std::string& path) {
  std::map<std::string, int> total, run;
  const auto close_run = [&] {
    for (const auto& [id, n] : run) total[id] += n;
    run.clear();
  };
  const auto take = [&](const InputLine& line) {
    if (!line.flaw.empty()) return;
    const nlohmann::json j = nlohmann::json::parse(line.text, nullptr, false);
    if (!j.is_object() || !j.contains("event") || !j["event"].is_string()) return;
    const std::string event = j["event"].get<std::string>();
    if (event == "run") close_run();
    if (event == "stop") run.clear();
    if (!j.contains("id") || !j["id"].is_string()) return;
    const int times = j.contains("times") && j["times"].is_number_integer() ? j["times"].get<int>() : 1;
    int& n = run[j["id"].get<std::string>()];
    if (event == "start") n += times;
    if (event == "end") n -= times;
  };
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
    read_input_lines(path, {kMaxAttemptsLogBytes, "an attempts log may hold: delete it to start afresh",
                            kMaxAttemptsLineBytes}, take);
  close_run();
  std::map<std::string, int> deaths;
  for (const auto& [id, n] : total)
    if (n > 0) deaths[id] = n;
  return deaths;
}

std::string marker(const char* event) { return nlohmann::json{{"event", event}}.dump() + "\n"; }

}  // namespace

RunAttempts::RunAttempts(const std::string& results, bool resume) {
  if (results.empty()) return;
  path_ = results + ".attempts";
  // Never through a link (it would write wherever the link points) and never a FIFO or device
  // (an open or read of one can block for ever): a regular file or nothing, checked before use,
  // and O_NOFOLLOW for a link put there in between.
  require_output_path(path_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd_ < 0 && errno == ELOOP)
    throw InputError(path_, "<file>", "is a symbolic link; the run's attempts log is never written through one");
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot open the run's attempts log: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path_, "<file>", "exists and is not a regular file; the run's attempts log must be one");
  }
  if (resume) deaths_ = read_deaths(path_);
  if (!resume && ::ftruncate(fd_, 0) != 0)
    throw std::runtime_error(path_ + ": cannot empty the run's attempts log: " + std::strerror(errno));
  const std::string begin = marker("run");
  if (::write(fd_, begin.data(), begin.size()) != static_cast<ssize_t>(begin.size()))
    throw std::runtime_error(path_ + ": cannot append to the run's attempts log: " + std::strerror(errno));
}

std::map<std::string, int> RunAttempts::recorded_deaths(const std::string& results) {
  return read_deaths(results + ".attempts");
}

RunAttempts::~RunAttempts() {
  if (marking_) set_stop_append(-1, "");
  if (fd_ >= 0) ::close(fd_);
}

void RunAttempts::mark_stops() {
  if (fd_ < 0) return;
  set_stop_append(fd_, marker("stop"));
  marking_ = true;
}

void RunAttempts::append(const char* event, const std::string& id) {
  if (fd_ < 0) return;
  const std::string text = line(event, id);
  const std::lock_guard lock(mutex_);
  if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    throw std::runtime_error(path_ + ": cannot append to the run's attempts log: " + std::strerror(errno));
}

void RunAttempts::settle(const std::map<std::string, int>& kept) {
  if (fd_ < 0) return;
  if (marking_) set_stop_append(-1, "");
  marking_ = false;
  ::close(fd_);
  fd_ = -1;
  if (kept.empty()) {
    ::unlink(path_.c_str());
    return;
  }
  std::string text;
  for (const auto& [id, n] : kept) text += line("start", id, n);
  const FileWriteSection section;
  write_file_atomically(path_, text);
}

}  // namespace elsbench
