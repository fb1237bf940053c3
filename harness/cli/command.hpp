#pragma once
// Subcommands of the elsbench CLI register themselves: each lives in harness/cli/<name>.cpp.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace elsbench {

// setup(app) adds the subcommand and its callback; the callback returns the exit code via
// set_exit_code (CLI11 callbacks return void).
using CommandSetup = std::function<void(CLI::App& app)>;

struct CommandEntry {
  int order;  // position in --help
  CommandSetup setup;
};

std::vector<CommandEntry>& command_table();
void set_exit_code(int code);
int exit_code();
// The command as given, for a results file: "elsbench <subcommands>", then the positional values
// and the flags with their values, in the order CLI11 knows them.
std::string command_line(const CLI::App& cmd);

}  // namespace elsbench

#define ELSBENCH_REGISTER_COMMAND(order, setup_fn)                                 \
  static const bool ELSBENCH_CONCAT(elsbench_command_, __LINE__) [[maybe_unused]] = \
      (::elsbench::command_table().push_back({order, setup_fn}), true)
#ifndef ELSBENCH_CONCAT
#define ELSBENCH_CONCAT_INNER(a, b) a##b
#define ELSBENCH_CONCAT(a, b) ELSBENCH_CONCAT_INNER(a, b)
#endif
