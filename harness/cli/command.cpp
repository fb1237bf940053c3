#include "harness/cli/command.hpp"

namespace elsbench {

std::vector<CommandEntry>& command_table() {
  static std::vector<CommandEntry> table;
  return table;
}

namespace {
int g_exit_code = 0;
}

void set_exit_code(int code) { g_exit_code = code; }
int exit_code() { return g_exit_code; }

}  // namespace elsbench
