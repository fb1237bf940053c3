// elsbench validate [--preset quick|full|FILE] [--reference stored|auto] [--out FILE [--resume]]: exit 0
// iff every case passes. With --out, the cases go into a results file of the one schema, as a
// sweep's do, and --resume keeps those already there.
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/cli/out_format_flag.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/run/price_run.hpp"
#include "harness/sweep/validation_run.hpp"

namespace elsbench {
namespace {

struct ValidateArgs {
  std::string preset = "quick", out;
  int threads = 0;
  bool error_estimate = false, resume = false;
  std::string target_error, tol;
  ReferenceFlags reference;
  OutFormatFlag out_format;
};

void setup(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "price every case of a validation preset against its reference");
  cmd->add_option("--preset", args->preset, "quick | full | a case file (harness/presets/validation/*.json)");
  cmd->add_option("--threads", args->threads, "CPU threads (0: all cores)")->check(CLI::Range(0, kMaxThreads));
  args->reference.add_to(*cmd);
  add_tol_flag(*cmd, args->tol);
  cmd->add_flag("--error-estimate", args->error_estimate,
                "estimate each case's discretisation error from coarser grids; above its tol the case is 'unconverged'");
  cmd->add_option("--target-error", args->target_error,
                  "price each case to this error (0.01, or 0.5bp of the notional) on the grid that meets it, its\n"
                  "error bar the allowance; a case that misses it is 'unconverged'");
  cmd->add_option("--out", args->out,
                  "also write the cases into this results file (JSON; the other formats' files go beside it)");
  cmd->add_flag("--resume", args->resume,
                "keep the cases already in --out (validated with the same preset and settings) and price the rest");
  args->out_format.add_to(*cmd);
  cmd->callback([args, cmd] {
    ValidationPlan plan = load_validation_plan(args->preset, args->threads);
    plan.references = args->reference.policy();
    plan.references.threads = args->threads;
    plan.settings.error_estimate = args->error_estimate;
    plan.settings.tolerance.fixed = read_tol(args->tol, true);
    if (!args->target_error.empty())
      plan.settings.target = read_target(args->target_error, false, args->error_estimate, "(command line)",
                                         {"--target-error", "", "--error-estimate"});
    if (args->resume && args->out.empty()) throw std::invalid_argument("--resume needs --out");
    ValidationRun run;
    run.path = args->out;
    run.formats = args->out_format.formats();
    run.command = command_line(*cmd);
    run.progress = &std::cerr;
    run.handle_signals = !args->out.empty();
    run.resume = args->resume;
    run.target_error = args->target_error;
    const ValidationSummary s = run_validation(plan, run);
    std::cout << "validation preset " << plan.source << " (k = " << plan.settings.k << ")\n" << s.table;
    std::cout << s.passed << " passed, " << s.cases - s.passed << " failed";
    if (s.kept) std::cout << " (" << s.kept << " kept from --out)";
    std::cout << '\n';
    set_exit_code(s.all_passed() ? 0 : 1);
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(30, setup);

}  // namespace elsbench
