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

std::string command_line(const CLI::App& cmd) {
  std::string s;
  for (const CLI::App* a = &cmd; a->get_parent(); a = a->get_parent()) s = " " + a->get_name() + s;
  s = "elsbench" + s;
  for (const CLI::Option* o : cmd.get_options()) {
    if (o->count() == 0 || o->get_name() == "--help") continue;
    if (o->nonpositional()) s += " " + o->get_name();
    std::string values;
    for (const auto& r : o->results()) values += (values.empty() ? "" : ",") + r;
    if (!values.empty()) s += " " + values;
  }
  return s;
}

}  // namespace elsbench
