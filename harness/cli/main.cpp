// elsbench: validate, price, sweep and report finite-difference pricers of step-down ELS.
#include <algorithm>
#include <csignal>
#include <iostream>
#include <new>
#include <stdexcept>

#include "harness/cli/command.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"

int main(int argc, char** argv) {
  // A write past `ulimit -f` fails with EFBIG and is reported (the previous file stays), instead
  // of SIGXFSZ killing the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"elsbench: which finite-difference ELS pricer to run, where, and at what precision"};
  app.require_subcommand(1);
  auto& table = elsbench::command_table();
  std::sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  for (const auto& c : table) c.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are parse "errors" that exit 0; every other is a bad flag: 2.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const elsbench::InputError& e) {
    std::cerr << "elsbench: bad input: " << e.what() << '\n';
    return 2;
  } catch (const elsbench::SolverError& e) {
    std::cerr << "elsbench: " << e.kind_name() << ": " << e.what() << '\n';
    return 3;
  } catch (const std::invalid_argument& e) {
    // A request the harness refuses before any work (flags, solver, scheme, device).
    std::cerr << "elsbench: bad input: " << e.what() << '\n';
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "elsbench: out-of-memory: an allocation failed; try a smaller --n\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "elsbench: error: " << e.what() << '\n';
    return 1;
  }
  return elsbench::exit_code();
}
