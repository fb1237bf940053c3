// elsbench validate [--preset quick|full|FILE] [--reference stored|auto]: exit 0 iff every case passes.
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/run/validation.hpp"

namespace elsbench {
namespace {

struct ValidateArgs {
  std::string preset = "quick";
  int threads = 0;
  bool error_estimate = false;
  ReferenceFlags reference;
};

void setup(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "price every case of a validation preset against its reference");
  cmd->add_option("--preset", args->preset, "quick | full | a case file (harness/presets/validation/*.json)");
  cmd->add_option("--threads", args->threads, "CPU threads (0: all cores)")->check(CLI::Range(0, kMaxThreads));
  args->reference.add_to(*cmd);
  cmd->add_flag("--error-estimate", args->error_estimate,
                "estimate each case's discretisation error from coarser grids; above its tol the case is 'unconverged'");
  cmd->callback([args] {
    ValidationPlan plan = load_validation_plan(args->preset);
    plan.references = args->reference.policy();
    plan.references.threads = args->threads;
    plan.settings.error_estimate = args->error_estimate;
    std::vector<ValidationOutcome> outcomes;
    int failed = 0;
    for (std::size_t i = 0; i < plan.cases.size(); ++i) {
      SweepCase c = plan.cases[i];
      if (c.device.is_cpu() && c.device.threads == 0) c.device.threads = args->threads;
      std::cerr << "[" << i + 1 << "/" << plan.cases.size() << "] " << c.product << " " << c.solver << " n=" << c.n << '\n';
      outcomes.push_back(validate_case(plan, c));
      if (!outcomes.back().outcome.passed()) ++failed;
    }
    std::cout << "validation preset " << plan.source << " (k = " << plan.settings.k << ")\n"
              << validation_table(outcomes);
    std::cout << outcomes.size() - static_cast<std::size_t>(failed) << " passed, " << failed << " failed\n";
    set_exit_code(failed ? 1 : 0);
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(30, setup);

}  // namespace elsbench
