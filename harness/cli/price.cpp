// elsbench price --product FILE|ID --solver NAME [grid flags] [--greeks] [--reference none|stored|auto] [--json]
// With a reference, a verdict (harness/run/price_verdict.hpp): pass or fail, exit 1 on fail.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "harness/cli/command.hpp"
#include "harness/cli/reference_flags.hpp"
#include "harness/cli/solver_flags.hpp"
#include "harness/placement/case_status.hpp"
#include "harness/results/price_json.hpp"
#include "harness/run/price_run.hpp"
#include "platform/stop_request.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/solver.hpp"

namespace elsbench {
namespace {

struct PriceArgs {
  std::string product, solver = "adi";  // as book price and the Python package: the solver for ELS notes
  SolverFlags flags;
  ReferenceFlags reference;
  bool json = false, greeks = false, error_estimate = false;
  std::string greek_units = "model";
  std::string target_error, tol;
};

std::string reference_text(const ReferenceValue& ref, double price) {
  std::ostringstream s;
  s << std::left << std::fixed << std::setprecision(6) << "  " << std::setw(13) << "reference" << ref.price << " +- "
    << std::setprecision(6) << ref.std_error << " (" << ref.source << ")\n"
    << "  " << std::setw(13) << "error" << std::scientific << std::setprecision(3) << price - ref.price << '\n';
  return s.str();
}

std::string verdict_text(const CaseOutcome& out) {
  const Verdict& v = out.verdict;
  const AllowanceSource& why = out.allowance_source;
  std::ostringstream s;
  s << std::setprecision(4) << "  " << std::left << std::setw(13) << "verdict" << to_string(out.status)
    << " (|error| " << std::abs(v.error) << (v.pass ? " <= " : " > ") << "allowance " << v.allowance << ": "
    << why.k << " x stderr " << out.reference->std_error << " + discretisation " << out.tol;
  if (!why.tol_source.empty())
    s << ", " << why.tol_source << ")\n";
  else if (why.from_estimate)
    s << ", the estimated error)\n";
  else
    s << " by the default rule c (100/n)^2 |reference|, c = " << why.c
      << "; --error-estimate judges by the price's own estimate)\n";
  return s.str();
}

void setup(CLI::App& app) {
  auto args = std::make_shared<PriceArgs>();
  auto* cmd = app.add_subcommand("price", "price one product with one solver");
  cmd->add_option("--product", args->product, "catalog id or JSON file")->required();
  cmd->add_option("--solver", args->solver, "solver name (elsbench list solvers)")->capture_default_str();
  args->flags.add_to(*cmd, default_grid_words());
  args->reference.add_to(*cmd, "none");
  add_tol_flag(*cmd, args->tol);
  cmd->add_flag("--json", args->json, "print the result as JSON");
  cmd->add_flag("--greeks", args->greeks,
                "also vega per asset and rho (bump and reprice, central differences) and theta (one time step)");
  add_greek_units_flag(*cmd, args->greek_units);
  cmd->add_flag("--error-estimate", args->error_estimate,
                "estimate the discretisation error from coarser grids (n/2, n/4 at the same steps; nt/2, nt/4,\n"
                "or 2 nt where the event dates pin the steps): observed orders, Richardson value");
  cmd->add_option("--target-error", args->target_error,
                  "the error to meet, in price units (0.01) or basis points of the notional (0.5bp): the grid is\n"
                  "chosen from a pilot, the price is Richardson's value with its error bar, exit 3 if missed");
  cmd->callback([args, cmd] {
    const Product product = resolve_product(args->product);
    const SolverInfo& solver = SolverRegistry::instance().get(args->solver);
    PriceRequest request;
    request.options = args->flags.parsed();
    set_command_deadline(request.options.max_seconds);  // every pricing of the command within it
    request.greeks = args->greeks;
    request.greek_units = parsed_greek_units(args->greek_units);
    request.error_estimate = args->error_estimate;
    choose_grid(request, product, cmd->count("--n") > 0 || cmd->count("--nt") > 0, args->target_error, "(command line)",
                {"--target-error", "--n and --nt", "--error-estimate"});
    if (args->reference.wanted()) request.reference = args->reference.policy();
    request.tol = read_tol(args->tol, args->reference.wanted());
    const CaseOutcome run = run_price(solver, product, request);
    if (request.reference && !run.reference)
      std::cerr << "elsbench price: no reference for " << product.id << " (try --reference auto)\n";
    if (args->json) {
      std::cout << price_json(run, request.reference.has_value()).dump(2) << '\n';
    } else {
      std::cout << to_text(*run.result);
      if (run.reference) std::cout << reference_text(*run.reference, run.result->price) << verdict_text(run);
    }
    if (run.status == CaseStatus::Fail) set_exit_code(1);
    if (const auto& a = run.result->accuracy; a && a->target && *a->bound > *a->target) {
      std::cerr << "elsbench price: unconverged: the error bar " << *a->bound << " exceeds the target " << *a->target
                << " (" << a->target_text << ") at n = " << a->n << "; the price above is not to the target\n";
      set_exit_code(3);
    }
  });
}

}  // namespace

ELSBENCH_REGISTER_COMMAND(20, setup);

}  // namespace elsbench
