#include "harness/run/price_run.hpp"

#include "platform/input_error.hpp"
#include "platform/stop_request.hpp"
#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/risk_greeks.hpp"

namespace elsbench {

namespace {

// The price, with its Greeks and error estimate where asked: every pricing of a request.
// `options` ends on the grid the price came from.
PriceResult price_request(const SolverInfo& solver, const Product& product, const PriceRequest& request,
                          SolverOptions& options) {
  options = request.options;
  PriceResult result;
  if (request.target) {
    result = price_to_target(solver, product, options, *request.target);
    options.grid.n = result.accuracy->n;
    options.grid.axis_nodes.clear();
  } else if (request.extrapolate && !request.grid) {
    result = request.error_estimate ? price_with_bound(solver, product, options)
                                    : price_extrapolated(solver, product, options);
  } else {
    result = request.grid ? price_with(solver, product, options, *request.grid) : price_with(solver, product, options);
    if (request.error_estimate) add_error_estimate(solver, product, options, result);
  }
  // Bumped on the (finer) grid the price came from, not extrapolated.
  if (request.greeks) add_risk_greeks(solver, product, options, result, {}, request.greek_units);
  return result;
}

}  // namespace

CaseOutcome run_price(const SolverInfo& solver, const Product& product, const PriceRequest& request) {
  std::optional<ReferenceValue> reference;
  if (request.reference) reference = reference_for(product, *request.reference);
  SolverOptions options;
  CaseOutcome out = unjudged(price_request(solver, product, request, options));
  out.reference = std::move(reference);
  if (out.reference) judge_price(out, product, solver, options, request.tol);
  return out;
}

bool plan_progress(const SolverInfo& solver, const Product& product, const PriceRequest& request) {
  if (request.target) return false;
  PriceRequest plan = request;
  plan.options.plan_only = true;
  plan.grid = nullptr;
  SolverOptions options;
  price_request(solver, product, plan, options);
  march_progress().total_known = true;
  return true;
}

ErrorTarget read_target(const std::string& text, bool grid_given, bool error_estimate, const std::string& source,
                        const AccuracyFields& names) {
  if (grid_given) throw InputError(source, names.target, std::string("it chooses the grid: drop ") + names.grid);
  if (error_estimate)
    throw InputError(source, names.error_estimate, std::string("the error bar of ") + names.target + " is the estimate");
  try {
    return parse_error_target(text);
  } catch (const std::invalid_argument& e) {
    throw InputError(source, names.target, e.what());
  }
}

void choose_grid(PriceRequest& request, const Product& product, bool grid_given, const std::string& target_error,
                 const std::string& source, const AccuracyFields& names) {
  if (!target_error.empty()) {
    request.target = read_target(target_error, grid_given, request.error_estimate, source, names);
  } else if (!grid_given) {
    request.extrapolate = true;
    request.options.grid = on_default_grid(request.options.grid, product);
  }
}

}  // namespace elsbench
