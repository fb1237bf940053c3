// elsbench sweep [--preset quick|ci|cloud|full|FILE] [axis overrides] [--instance I] [--out FILE]
//                [--resume FILE [--retry-skipped]] [--dry-run]
#include <ctime>
#include <iostream>
#include <map>

#include "harness/cli/command.hpp"
#include "harness/cli/flag_limits.hpp"
#include "harness/cli/out_format_flag.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/machine/machine.hpp"
#include "harness/results/reporter.hpp"
#include "harness/results/results_file.hpp"
#include "harness/runner/progress.hpp"
#include "harness/sweep/axis.hpp"
#include "harness/sweep/overrides.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/preset.hpp"
#include "harness/sweep/sweep.hpp"
#include "harness/sweep/sweep_estimate.hpp"
#include "products/catalog.hpp"

namespace elsbench {
namespace {

struct SweepArgs {
  std::string preset = "quick";
  std::map<std::string, std::vector<std::string>> axis_text;  // by axis key, as given
  SweepOverrides overrides;
  int repetitions = 0;
  std::string instance, out, resume;
  bool dry_run = false, retry_skipped = false;
  ReferenceFlags reference;
  OutFormatFlag out_format;
};

void print_plan(const SweepPlan& plan, const SweepSpec& spec) {
  for (const auto& c : plan.cases)
    std::cout << c.id() << (c.skip_reason.empty() ? "" : "  [skip: " + c.skip_reason + "]") << '\n';
  std::cout << plan.cases.size() << " cases\n" << describe(estimate_sweep(plan, spec), spec);
}

void print_summary(const SweepSummary& s, const std::string& path, const std::vector<std::string>& formats) {
  std::cout << "sweep: " << s.cases << " cases (" << s.ran << " run now): " << s.pass << " pass, " << s.fail
            << " fail, " << s.no_reference << " no-reference, " << s.unconverged << " unconverged, " << s.skipped << " skipped, in "
            << format_duration(s.seconds) << '\n';
  for (std::size_t i = 0; i < formats.size(); ++i)
    std::cout << (i ? "         " : "results: ") << format_path(path, formats[i]) << '\n';
}

void run(const CLI::App& cmd, SweepArgs& args) {
  SweepRun run;
  run.command = command_line(cmd);
  run.instance = args.instance;
  run.progress = &std::cerr;
  run.handle_signals = true;
  if (args.repetitions) args.overrides.repetitions = args.repetitions;
  args.overrides.axes = axes_from_text(args.axis_text, "command line", [](const SweepAxis& a) { return a.flag; });
  run.references = args.reference.policy();
  run.formats = args.out_format.formats();

  if (!args.resume.empty()) {
    if (!args.overrides.empty() || cmd.count("--preset") || cmd.count("--instance") || cmd.count("--reference"))
      throw std::invalid_argument("--resume takes the sweep, preset and instance from the file; "
                                  "give only --out besides it");
    run.path = args.out;
    run.retry_skipped = args.retry_skipped;
    const SweepSummary s = resume_sweep(args.resume, run);
    print_summary(s, args.out.empty() ? args.resume : args.out, run.formats);
    return;
  }

  if (args.retry_skipped) throw std::invalid_argument("--retry-skipped goes with --resume FILE");
  SweepSpec spec = load_preset(args.preset);
  run.preset_label = args.overrides.empty() ? spec.preset : "custom";
  apply_overrides(spec, args.overrides);
  if (args.dry_run) {
    print_plan(plan_sweep(spec), spec);
    return;
  }
  run.path = args.out;
  if (run.path.empty()) {
    const MachineInfo m = describe_machine(args.instance);
    const std::string today = [] {
      const std::time_t t = std::time(nullptr);
      std::tm tm{};
      gmtime_r(&t, &tm);
      char buf[16];
      std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
      return std::string(buf);
    }();
    run.path = default_results_path(project_root(), machine_slug(m), today, m.git_commit);
  }
  std::cerr << "elsbench sweep: writing " << run.path << '\n';
  print_summary(run_sweep(spec, run), run.path, run.formats);
}

void setup(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand(
      "sweep",
      "price, validate, time and measure every case of a sweep into a results file\n"
      "(the product of the axes below; presets in harness/presets/). An axis named here replaces\n"
      "that axis in every group of the preset; with --solvers but not --devices (or the reverse), a\n"
      "group's devices that none of its solvers runs on are dropped. --dry-run prints the plan.");
  cmd->add_option("--preset", args->preset, "quick | ci | cloud | full, or a preset JSON file (default: quick)");
  // One flag per declared axis (harness/sweep/axes/), its values comma- or space-separated.
  for (const SweepAxis& axis : sweep_axes())
    cmd->add_option(axis.flag, args->axis_text[axis.key], axis.help)->delimiter(',');
  cmd->add_option("--repetitions", args->repetitions, "the least timed repetitions per case (>= 2)")
      ->check(CLI::Range(2, kMaxRepetitions));
  cmd->add_option("--timing-target", args->overrides.timing_target,
                  "more repetitions until the median's 95 % interval is within this fraction of it (default 0.05; "
                  "0: exactly --repetitions; checked with the preset's timing.target)");
  cmd->add_option("--timing-max-seconds", args->overrides.timing_max_seconds,
                  "timed seconds per case after which no further repetition starts (default 10)");
  cmd->add_option("--instance", args->instance, "cloud instance, recorded verbatim (e.g. aws:g4dn.xlarge, colab:t4)");
  cmd->add_option("--out", args->out, "results file (default: results/<machine>/<date>-<commit>.json)");
  args->out_format.add_to(*cmd);
  cmd->add_option("--resume", args->resume, "continue the partial results file FILE");
  cmd->add_flag("--retry-skipped", args->retry_skipped, "with --resume: run the file's skipped cases again");
  cmd->add_flag("--dry-run", args->dry_run, "list the cases and exit");
  cmd->add_flag("--error-estimate", args->overrides.error_estimate,
                "estimate each case's discretisation error from coarser grids (n/2, n/4; nt/2, nt/4);\n"
                "a case whose estimate exceeds its allowance is 'unconverged'");
  cmd->add_option("--target-error", args->overrides.target_error,
                  "price each case to this error (0.01, or 0.5bp of the notional) on the grid that meets it, timed\n"
                  "whole; a case that misses it is 'unconverged'");
  args->reference.add_to(*cmd);
  cmd->callback([cmd, args] { run(*cmd, *args); });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(50, setup);

}  // namespace elsbench
