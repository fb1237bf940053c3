#pragma once
// --out-format, one flag for every command that writes a results file (sweep, book price,
// validate): the formats written (harness/results/reporter.hpp), its help listing those registered.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace elsbench {

struct OutFormatFlag {
  std::string text;
  void add_to(CLI::App& cmd);
  // The formats named, or the default ones when the flag was not given.
  std::vector<std::string> formats() const;
};

}  // namespace elsbench
