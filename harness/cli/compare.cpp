// elsbench compare BASE.json NEW.json [--price-tol X] [--time-tol PCT] [--alpha A] [--fail-on-slow]
//                  [--allow-missing] [--json]
// elsbench compare FILE.json --by AXIS[=BASE,NEW] [...]: one file's cases, BASE's value of the
// axis against NEW's (fp64 against mixed, adi against adi-cuda), each case against its twin.
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/compare/compare.hpp"
#include "harness/compare/compare_json.hpp"
#include "harness/compare/compare_text.hpp"
#include "platform/input_error.hpp"

namespace elsbench {
namespace {

struct CompareArgs {
  std::string base, now, by;
  CompareOptions options;
  bool json = false;
};

// "precision=fp64,mixed", or "precision" where the file holds exactly two values of it.
std::pair<CaseTable, CaseTable> split_file(const CaseTable& cases, const std::string& by, const std::string& origin,
                                           std::string& label) {
  const auto eq = by.find('=');
  const std::string axis = by.substr(0, eq);
  std::vector<std::string> values;
  if (eq != std::string::npos) {
    const std::string rest = by.substr(eq + 1);
    const auto comma = rest.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 == rest.size() || rest.find(',', comma + 1) != std::string::npos)
      throw InputError("(command line)", "--by", "expected AXIS or AXIS=BASE,NEW, got '" + by + "'");
    values = {rest.substr(0, comma), rest.substr(comma + 1)};
  } else {
    values = axis_values(cases, axis);
    if (values.size() != 2)
      throw InputError(origin, "--by", "the file holds " + std::to_string(values.size()) + " values of '" + axis +
                                           "': name two, as --by " + axis + "=BASE,NEW");
  }
  label = axis + "=" + values[0] + " -> " + axis + "=" + values[1];
  auto sides = split_by(cases, axis, values[0], values[1], origin);
  if (sides.first.empty() || sides.second.empty())
    throw InputError(origin, "--by", "no case has " + axis + "=" + (sides.first.empty() ? values[0] : values[1]));
  return sides;
}

void setup(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare",
      "compare two results files case by case; exit 1 on a price regression (and on a significant "
      "slowdown with --fail-on-slow)");
  cmd->add_option("BASE", args->base, "baseline results file (a sweep's, a book's or a validation's)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("NEW", args->now, "new results file (none with --by)")->check(CLI::ExistingFile);
  cmd->add_option("--by", args->by,
                  "compare BASE's cases with each other along one axis: AXIS=BASE,NEW (precision=fp64,mixed), or\n"
                  "AXIS alone where the file holds two values of it (product, solver, scheme, n, nt, device,\n"
                  "threads, precision, book, or a grid setting such as ki_damping)");
  cmd->add_option("--price-tol", args->options.price_tol, "absolute price drift that counts as a regression")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--time-tol", args->options.time_tol_pct,
                  "noise allowance in percent: a median time change smaller than this is never a slowdown")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--alpha", args->options.alpha, "significance level of the Mann-Whitney test on repetitions")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_flag("--fail-on-slow", args->options.fail_on_slow, "exit 1 on a significant slowdown beyond --time-tol");
  cmd->add_flag("--include-noisy", args->options.include_noisy,
                "judge times taken on a busy or throttled machine too (marked noisy in the results)");
  cmd->add_flag("--fail-on-change", args->options.fail_on_change,
                "across commits, a price that moved fails as a regression (default: listed as age)");
  // A lost case fails by default: a damaged or truncated NEW must not pass as no regression.
  cmd->add_flag("--fail-on-missing", args->options.fail_on_missing,
                "exit 1 when a BASE case is absent from NEW or skipped there (the default)");
  cmd->add_flag("--allow-missing{false}", args->options.fail_on_missing,
                "a BASE case absent from NEW or skipped there is listed, not a failure");
  cmd->add_flag("--json", args->json, "print the verdicts as JSON (the report's history reads them), not as text");
  cmd->callback([args] {
    if (args->by.empty() == args->now.empty())
      throw InputError("(command line)", args->by.empty() ? "NEW" : "--by",
                       "give two files, or one file and --by AXIS");
    std::string label = args->base + " -> " + args->now;
    RunProvenance base_run, new_run;  // one file split --by shares its commit and machine
    const auto [base, now] = args->by.empty()
                                 ? std::pair{load_cases(args->base, &base_run), load_cases(args->now, &new_run)}
                                 : split_file(load_cases(args->base), args->by, args->base, label);
    if (!args->by.empty()) label = args->base + ": " + label;
    const CompareScope scope = scope_of(base_run, new_run);
    const Comparison c = compare(base, now, args->options, scope);
    if (args->json) {
      std::cout << to_json(c, args->options).dump(2) << '\n';
    } else {
      std::cout << "elsbench compare: " << label << '\n' << to_text(c, args->options);
    }
    set_exit_code(regression_exit_code(c, args->options));
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(80, setup);

}  // namespace elsbench
