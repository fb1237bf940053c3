#include "harness/run/price_verdict.hpp"

#include <cmath>

#include "harness/run/case_run.hpp"
#include "harness/run/tolerance.hpp"

namespace elsbench {

void judge_price(CaseOutcome& out, const Product& product, const SolverInfo& solver, const SolverOptions& options,
                 const std::optional<ErrorTarget>& tol) {
  const PriceResult& r = *out.result;
  const ReferenceValue& ref = *out.reference;
  AllowanceSource& why = out.allowance_source;
  why.k = CaseSettings{}.k;
  why.from_estimate = r.error_estimate.has_value() || (r.accuracy && r.accuracy->bound);
  if (tol) {
    why.from_estimate = false;
    out.tol = tol->in_price_units(product);
    why.tol_source = "--tol " + tol->text;
  } else if (r.accuracy && r.accuracy->bound) {
    out.tol = *r.accuracy->bound;
  } else if (r.error_estimate) {
    out.tol = r.error_estimate->bound;
  } else {
    const ToleranceRule rule;
    why.c = solver.tolerance_c.value_or(rule.c);
    out.tol = rule.tol(product.id, solver.name, solver.tolerance_c, to_string(options.precision), options.grid.n,
                       ref.price, product.notional);
  }
  out.verdict = judge(r.price, ref, out.tol, why.k);
  out.status = out.verdict.pass ? CaseStatus::Pass : CaseStatus::Fail;
}

}  // namespace elsbench
