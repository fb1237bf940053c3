#include "harness/cli/out_format_flag.hpp"

#include "harness/results/reporter.hpp"

namespace elsbench {

void OutFormatFlag::add_to(CLI::App& cmd) {
  std::string help = "formats of the results, comma-separated, json among them (default json,csv):";
  for (const ResultsFormat& f : ResultsFormats::instance().all()) help += "\n  " + f.name + ": " + f.help;
  cmd.add_option("--out-format", text, help);
}

std::vector<std::string> OutFormatFlag::formats() const {
  return text.empty() ? default_out_formats() : parse_out_formats(text);
}

}  // namespace elsbench
