#pragma once
// The verdict on one price against its reference (`price --reference ...`), by validate's rule
// |price - reference| <= k * stderr + tol (reference/reference_value.hpp, judge), where the
// discretisation allowance tol is what the price itself claims: the absolute value of its
// estimated error (--error-estimate) when it has one, else the validation presets' default rule
// c (100/n)^2 max(|reference|, 1 % of notional) (harness/run/tolerance.hpp).
#include <optional>
#include <string>

#include "harness/placement/case_outcome.hpp"
#include "products/product.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/error_target.hpp"
#include "solvers/contract/options.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

// Judges `out` (its result and reference set): its tol, the allowance's source, the verdict and
// the status pass or fail. `tol`: --tol's allowance (ToleranceRule::fixed), which replaces the
// discretisation part.
void judge_price(CaseOutcome& out, const Product& product, const SolverInfo& solver, const SolverOptions& options,
                 const std::optional<ErrorTarget>& tol = std::nullopt);

}  // namespace elsbench
