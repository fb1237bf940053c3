// elsbench: validate, price, sweep and report finite-difference pricers of step-down ELS.
#include <algorithm>
#include <iostream>

#include "harness/cli/command.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"elsbench: which finite-difference ELS pricer to run, where, and at what precision"};
  app.require_subcommand(1);
  auto& table = elsbench::command_table();
  std::sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  for (const auto& c : table) c.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const elsbench::InputError& e) {
    std::cerr << "elsbench: bad input: " << e.what() << '\n';
    return 2;
  } catch (const elsbench::SolverError& e) {
    std::cerr << "elsbench: " << e.kind_name() << ": " << e.what() << '\n';
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "elsbench: error: " << e.what() << '\n';
    return 1;
  }
  return elsbench::exit_code();
}
