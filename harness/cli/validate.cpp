// elsbench validate [--preset quick|full|FILE] [--reference stored|auto] [--out FILE]: exit 0 iff every
// case passes. With --out, the cases go into a results file of the one schema, as a sweep's do.
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/cli/out_format_flag.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/results/case_record.hpp"
#include "harness/run/price_run.hpp"
#include "harness/run/validation.hpp"
#include "harness/runner/run_file.hpp"
#include "platform/file_io.hpp"

namespace elsbench {
namespace {

// A validation case is priced once, untimed: its entries carry that pricing's seconds.
nlohmann::json validation_entries(const ValidationPlan& plan, ValidationOutcome v) {
  if (v.outcome.result && v.outcome.timings.empty())
    v.outcome.timings = single_pricing_timings(v.spec.id(), v.outcome.result->seconds);
  nlohmann::json entries = case_entries(v.spec, plan_product(plan, v.spec.product), v.outcome);
  if (const std::string source = tol_source(plan.settings.tolerance); !source.empty() && v.outcome.reference)
    for (auto& e : entries) e["tol_source"] = source;
  return entries;
}

struct ValidateArgs {
  std::string preset = "quick", out;
  int threads = 0;
  bool error_estimate = false;
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
  args->out_format.add_to(*cmd);
  cmd->callback([args, cmd] {
    ValidationPlan plan = load_validation_plan(args->preset);
    plan.references = args->reference.policy();
    plan.references.threads = args->threads;
    plan.settings.error_estimate = args->error_estimate;
    plan.settings.tolerance.fixed = read_tol(args->tol, true);
    if (!args->target_error.empty())
      plan.settings.target = read_target(args->target_error, false, args->error_estimate, "(command line)",
                                         {"--target-error", "", "--error-estimate"});
    const RunFile writer(args->out, {}, args->out_format.formats());
    ResultsFile file = fresh_results("validation", command_line(*cmd), plan.cases.size(), "");
    file.elsbench()["validation"] = {{"source", plan.source}, {"k", plan.settings.k}};
    std::vector<ValidationOutcome> outcomes;
    int failed = 0;
    for (std::size_t i = 0; i < plan.cases.size(); ++i) {
      SweepCase c = plan.cases[i];
      if (c.device.is_cpu() && c.device.threads == 0) c.device.threads = args->threads;
      std::cerr << "[" << i + 1 << "/" << plan.cases.size() << "] " << c.product << " " << c.solver << " n=" << c.n << '\n';
      outcomes.push_back(validate_case(plan, c));
      if (!outcomes.back().outcome.passed()) ++failed;
      file.put_case(c.id(), validation_entries(plan, outcomes.back()));
      writer.save(file);
    }
    file.elsbench()["complete"] = true;
    file.elsbench()["finished"] = utc_timestamp();
    writer.save(file);
    std::cout << "validation preset " << plan.source << " (k = " << plan.settings.k << ")\n"
              << validation_table(outcomes);
    std::cout << outcomes.size() - static_cast<std::size_t>(failed) << " passed, " << failed << " failed\n";
    set_exit_code(failed ? 1 : 0);
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(30, setup);

}  // namespace elsbench
