#include "harness/runner/signals.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <string>

#include "platform/stop_request.hpp"

namespace elsbench {
namespace {

// Only lock-free atomics and a fixed buffer: all that a signal handler may touch.
std::atomic<bool> g_installed{false};
std::atomic<bool> g_writing{false};
std::atomic<bool> g_graceful{false};
std::atomic<int> g_pending{0};
char g_message[2048];
struct sigaction g_previous_int, g_previous_term;
std::atomic<int> g_append_fd{-1};
char g_append_line[128];

[[noreturn]] void stop(int sig) {
  if (const int fd = g_append_fd.load(); fd >= 0) {
    const ssize_t ignored = ::write(fd, g_append_line, std::strlen(g_append_line));
    (void)ignored;
  }
  const ssize_t ignored = ::write(STDERR_FILENO, g_message, std::strlen(g_message));
  (void)ignored;
  ::_exit(128 + sig);
}

extern "C" void on_signal(int sig) {
  if (g_graceful.load() && g_pending.exchange(sig) == 0) {
    request_stop();
    return;
  }
  g_pending.store(sig);
  if (!g_writing.load()) stop(sig);
}

}  // namespace

RunSignalGuard::RunSignalGuard(const std::string& message, bool gracefully) {
  g_graceful.store(gracefully);
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

RunSignalGuard::~RunSignalGuard() {
  g_installed.store(false);
  g_graceful.store(false);
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

void set_stop_append(int fd, const std::string& line) {
  g_append_fd.store(-1);  // the handler never reads a line half-copied
  std::strncpy(g_append_line, line.c_str(), sizeof g_append_line - 1);
  g_append_line[sizeof g_append_line - 1] = '\0';
  g_append_fd.store(fd);
}

int pending_signal() { return g_pending.load(); }

void stop_on_pending_signal() { stop(g_pending.load()); }

FileWriteSection::FileWriteSection() { g_writing.store(true); }

FileWriteSection::~FileWriteSection() {
  g_writing.store(false);
  if (const int sig = g_pending.load(); sig != 0 && g_installed.load() && !g_graceful.load()) stop(sig);
}

}  // namespace elsbench
