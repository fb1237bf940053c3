// elsbench compare BASE.json NEW.json [--price-tol X] [--time-tol PCT] [--alpha A] [--fail-on-slow]
//                  [--allow-missing]
#include <iostream>

#include "harness/cli/command.hpp"
#include "harness/compare/compare.hpp"
#include "harness/compare/compare_text.hpp"

namespace elsbench {
namespace {

struct CompareArgs {
  std::string base, now;
  CompareOptions options;
};

void setup(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd = app.add_subcommand(
      "compare",
      "compare two results files case by case; exit 1 on a price regression (and on a significant "
      "slowdown with --fail-on-slow)");
  cmd->add_option("BASE", args->base, "baseline results file")->required()->check(CLI::ExistingFile);
  cmd->add_option("NEW", args->now, "new results file")->required()->check(CLI::ExistingFile);
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
  // A lost case fails by default: a damaged or truncated NEW must not pass as no regression.
  cmd->add_flag("--fail-on-missing", args->options.fail_on_missing,
                "exit 1 when a BASE case is absent from NEW or skipped there (the default)");
  cmd->add_flag("--allow-missing{false}", args->options.fail_on_missing,
                "a BASE case absent from NEW or skipped there is listed, not a failure");
  cmd->callback([args] {
    const Comparison c = compare(load_cases(args->base), load_cases(args->now), args->options);
    std::cout << "elsbench compare: " << args->base << " -> " << args->now << '\n' << to_text(c, args->options);
    set_exit_code(regression_exit_code(c, args->options));
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(80, setup);

}  // namespace elsbench
