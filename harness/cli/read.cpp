// elsbench read FILE [--as NAME]: a results file as elsbench's one reader reads it (the schema,
// every case's fields, each case once), printed as JSON; a file it refuses exits 2 with the file
// (or NAME: the report checks a converted v1 book written to a temporary file under its source's
// name) and the field named. The report (harness/report) reads results through it.
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/results/results_file.hpp"

namespace elsbench {
namespace {

void setup(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto name = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "read", "print a results file (a sweep's, a book's or a validation's) as elsbench reads it: checked, as JSON");
  cmd->add_option("FILE", *path, "the results file")->required();
  cmd->add_option("--as", *name, "the file's name in a refusal (default: FILE)");
  cmd->callback([path, name] {
    const std::string origin = name->empty() ? *path : *name;
    const ResultsFile file = read_results_file(*path, origin);
    check_each_case_once(file.benchmarks, origin);
    std::cout << nlohmann::json{{"context", file.context}, {"benchmarks", file.benchmarks}}.dump() << '\n';
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(85, setup);

}  // namespace elsbench
