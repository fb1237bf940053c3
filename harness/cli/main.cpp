// elsbench: validate, price, sweep and report finite-difference pricers of step-down ELS.
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <new>
#include <stdexcept>

#include "harness/cli/command.hpp"
#include "platform/input_error.hpp"
#include "platform/solver_error.hpp"

namespace {

// Threads that wait for work spin by default (libgomp), which is fastest on an idle machine but
// starves other work on a busy one: 10-15 s instead of 0.15 s on 2 shared cores (issue 33). The
// default here is passive. libgomp reads OMP_WAIT_POLICY once, when it is loaded, before main: so
// the process runs itself again with it set, argv unchanged. The variable being set is the guard
// against a loop; a user's own value is kept when libgomp takes it (active or passive; an empty or
// other value counts as unset). If the exec fails, it runs on as it is and the variable is taken
// back, so that the results record the policy in force.
void run_with_passive_waits_by_default(char** argv) {
  if (const char* policy = std::getenv("OMP_WAIT_POLICY");
      policy && (strcasecmp(policy, "active") == 0 || strcasecmp(policy, "passive") == 0))
    return;
  if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("OMP_WAIT_POLICY");
}

}  // namespace

int main(int argc, char** argv) {
  run_with_passive_waits_by_default(argv);
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
    std::cerr << "elsbench: out-of-memory: an allocation failed; try a smaller --n (or fewer --paths)\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "elsbench: error: " << e.what() << '\n';
    return 1;
  }
  return elsbench::exit_code();
}
