#include "harness/sweep/signals.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace elsbench {
namespace {

// Only lock-free atomics and a fixed buffer: all that a signal handler may touch.
std::atomic<bool> g_installed{false};
std::atomic<bool> g_writing{false};
std::atomic<int> g_pending{0};
char g_message[2048];
struct sigaction g_previous_int, g_previous_term;

[[noreturn]] void stop(int sig) {
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

FileWriteSection::FileWriteSection() { g_writing.store(true); }

FileWriteSection::~FileWriteSection() {
  g_writing.store(false);
  if (const int sig = g_pending.load(); sig != 0 && g_installed.load()) stop(sig);
}

}  // namespace elsbench
