#include "harness/run/price_verdict.hpp"

#include <cmath>

#include "harness/run/case_run.hpp"
#include "harness/run/tolerance.hpp"

namespace elsbench {

PriceVerdict price_verdict(const PriceResult& r, const ReferenceValue& ref, const Product& product,
                           const SolverInfo& solver, const SolverOptions& options,
                           const std::optional<ErrorTarget>& tol) {
  PriceVerdict v;
  v.k = CaseSettings{}.k;
  v.stderr_part = v.k * ref.std_error;
  v.from_estimate = r.error_estimate.has_value() || (r.accuracy && r.accuracy->bound);
  if (tol) {
    v.from_estimate = false;
    v.discretisation_part = tol->in_price_units(product);
    v.tol_source = "--tol " + tol->text;
  } else if (r.accuracy && r.accuracy->bound) {
    v.discretisation_part = *r.accuracy->bound;
  } else if (r.error_estimate) {
    v.discretisation_part = r.error_estimate->bound;
  } else {
    const ToleranceRule rule;
    v.c = solver.tolerance_c.value_or(rule.c);
    v.discretisation_part = rule.tol(product.id, solver.name, solver.tolerance_c, to_string(options.precision),
                                     options.grid.n, ref.price, product.notional);
  }
  v.verdict = judge(r.price, ref, v.discretisation_part, v.k);
  return v;
}

}  // namespace elsbench
