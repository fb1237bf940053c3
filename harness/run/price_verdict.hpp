#pragma once
// The verdict on one price against its reference (`price --reference ...`), by validate's rule
// |price - reference| <= k * stderr + tol (reference/reference_value.hpp, judge), where the
// discretisation allowance tol is what the price itself claims: the absolute value of its
// estimated error (--error-estimate) when it has one, else the validation presets' default rule
// c (100/n)^2 max(|reference|, 1 % of notional) (harness/run/tolerance.hpp).
#include <optional>
#include <string>

#include "products/product.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/error_target.hpp"
#include "solvers/contract/options.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

struct PriceVerdict {
  Verdict verdict;                 // pass, error (price - reference), allowance
  double k = 3;                    // standard errors of the reference allowed
  double stderr_part = 0;          // k * the reference's standard error
  double discretisation_part = 0;  // tol
  bool from_estimate = false;      // tol is |estimated error|; else the default rule's
  std::string tol_source;          // "--tol 1bp" where the user set it
  double c = 0;                    // the default rule's coefficient, where it was used
};

// `tol`: --tol's allowance (ToleranceRule::fixed), which replaces the discretisation part.
PriceVerdict price_verdict(const PriceResult& r, const ReferenceValue& ref, const Product& product,
                           const SolverInfo& solver, const SolverOptions& options,
                           const std::optional<ErrorTarget>& tol = std::nullopt);

}  // namespace elsbench
