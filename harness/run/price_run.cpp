#include "harness/run/price_run.hpp"

#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {

PriceRun run_price(const SolverInfo& solver, const Product& product, const PriceRequest& request) {
  PriceRun run;
  run.reference_wanted = request.reference.has_value();
  if (request.reference) run.reference = reference_for(product, *request.reference);
  const SolverOptions& options = request.options;
  run.result = request.grid ? price_with(solver, product, options, *request.grid) : price_with(solver, product, options);
  if (request.greeks) add_risk_greeks(solver, product, options, run.result);
  if (request.error_estimate) add_error_estimate(solver, product, options, run.result);
  if (run.reference) run.verdict = price_verdict(run.result, *run.reference, product, solver, options);
  return run;
}

}  // namespace elsbench
