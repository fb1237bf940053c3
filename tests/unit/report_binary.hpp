#pragma once
// The elsbench executable of the build a test belongs to: CTest runs suites from <build>/tests/,
// the CLI is <build>/elsbench. ELSBENCH_BIN overrides it.
#include <cstdlib>
#include <filesystem>
#include <string>

namespace elsbench::testing {

inline std::string elsbench_binary() {
  if (const char* env = std::getenv("ELSBENCH_BIN"); env && *env) return env;
  return (std::filesystem::canonical("/proc/self/exe").parent_path().parent_path() / "elsbench").string();
}

inline std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Exit status of a shell command line, or -1 when it did not exit normally.
inline int run_command(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace elsbench::testing
