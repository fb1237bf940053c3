#pragma once
// The discretisation allowance `tol` of the validation rule |price - reference| <= k * stderr + tol.
// Default rule (second-order schemes):  tol = c * (100 / n)^2 * scale  [+ fp32_relative * scale in fp32]
// with scale = max(|reference price|, floor_fraction * notional), so the allowance shrinks with
// the grid, is relative to the size of the price, and never collapses for a price near zero.
// A preset may override it per case: the first override whose fields all match sets either an
// absolute `tol` or its own `c`. Without one, a variant's own coefficient (SolverInfo::tolerance_c,
// e.g. explicit Euler's) replaces the rule's c.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/error_target.hpp"

namespace elsbench {

struct ToleranceOverride {
  std::string product, solver, precision;  // empty: any
  int n = 0;                               // 0: any
  std::optional<double> tol, c;
  bool operator==(const ToleranceOverride&) const = default;
};

struct ToleranceRule {
  double c = 0.001;  // the validation presets' c, calibrated on measured ADI errors (docs/accuracy.md, Validation)
  double fp32_relative = 1e-4;   // rounding of a march in single precision
  double floor_fraction = 0.01;  // of the notional
  std::vector<ToleranceOverride> overrides;
  // --tol: one allowance for every case (an amount, or bp of the notional), whatever its grid;
  // it also replaces the bar a price claims (--target-error, --error-estimate): a verdict at the
  // user's tolerance.
  std::optional<ErrorTarget> fixed;

  // solver_c: the variant's coefficient hint (SolverInfo::tolerance_c), if it declares one.
  double tol(const std::string& product, const std::string& solver, std::optional<double> solver_c,
             const std::string& precision, int n, double reference_price, double notional) const;
};

// --tol's allowance for `product` in price units, if the rule has one.
std::optional<double> fixed_tol(const ToleranceRule& rule, const Product& product);
// What the allowance of a verdict was: "--tol 1bp" where fixed, else empty (the grid rule or the
// price's own bar, which the case's fields tell apart).
std::string tol_source(const ToleranceRule& rule);

ToleranceRule tolerance_rule_from_json(const nlohmann::json& j, const std::string& source);
nlohmann::json to_json(const ToleranceRule& rule);

}  // namespace elsbench
