#include "harness/runner/signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <string>

namespace elsbench {
namespace {

// Only lock-free atomics and a fixed buffer: all that a signal handler may touch.
std::atomic<bool> g_installed{false};
std::atomic<bool> g_writing{false};
std::atomic<int> g_pending{0};
char g_message[2048];
struct sigaction g_previous_int, g_previous_term;
// What a stop writes first (set_stop_record): replaced only inside a FileWriteSection, when the
// handler defers, so it never reads them half-changed.
std::string* g_stop_path = nullptr;
std::string* g_stop_temp = nullptr;
std::string* g_stop_text = nullptr;
std::atomic<int> g_append_fd{-1};
char g_append_line[128];

// open, write, fsync, rename: async-signal-safe, so the record is whole or absent.
void write_stop_record() {
  if (!g_stop_path || g_stop_path->empty()) return;
  const int fd = ::open(g_stop_temp->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const char* p = g_stop_text->data();
  std::size_t left = g_stop_text->size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  const bool whole = left == 0 && ::fsync(fd) == 0;
  ::close(fd);
  if (whole) {
    ::rename(g_stop_temp->c_str(), g_stop_path->c_str());
  } else {
    ::unlink(g_stop_temp->c_str());
  }
}

[[noreturn]] void stop(int sig) {
  write_stop_record();
  if (const int fd = g_append_fd.load(); fd >= 0) {
    const ssize_t ignored = ::write(fd, g_append_line, std::strlen(g_append_line));
    (void)ignored;
  }
  const ssize_t ignored = ::write(STDERR_FILENO, g_message, std::strlen(g_message));
  (void)ignored;
  ::_exit(128 + sig);
}

extern "C" void on_signal(int sig) {
  g_pending.store(sig);
  if (!g_writing.load()) stop(sig);
}

}  // namespace

SweepSignalGuard::SweepSignalGuard(const std::string& message) {
  std::strncpy(g_message, message.c_str(), sizeof g_message - 1);
  g_message[sizeof g_message - 1] = '\0';
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESTART;  // a deferred stop must not fail the write in progress
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
  g_pending.store(0);
  g_installed.store(true);
}

SweepSignalGuard::~SweepSignalGuard() {
  g_installed.store(false);
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

void set_stop_record(const std::string& path, const std::string& content) {
  if (!g_stop_path) {
    g_stop_path = new std::string;
    g_stop_temp = new std::string;
    g_stop_text = new std::string;
  }
  *g_stop_path = path;
  *g_stop_temp = path.empty() ? std::string() : path + ".stop.tmp";
  *g_stop_text = content;
}

void set_stop_append(int fd, const std::string& line) {
  g_append_fd.store(-1);  // the handler never reads a line half-copied
  std::strncpy(g_append_line, line.c_str(), sizeof g_append_line - 1);
  g_append_line[sizeof g_append_line - 1] = '\0';
  g_append_fd.store(fd);
}

FileWriteSection::FileWriteSection() { g_writing.store(true); }

FileWriteSection::~FileWriteSection() {
  g_writing.store(false);
  if (const int sig = g_pending.load(); sig != 0 && g_installed.load()) stop(sig);
}

}  // namespace elsbench
