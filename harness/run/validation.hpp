#pragma once
// The validation gate: each case (product x solver x grid) is priced and compared with a reference
// that no solver under test produced, by the rule |price - reference| <= k * stderr + tol.
#include <optional>
#include <string>
#include <vector>

#include "harness/run/tolerance.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/price_result.hpp"

namespace elsbench {

struct ValidationCase {
  std::string product, solver, scheme;
  int n = 100;
  std::optional<int> nt;  // empty: the solver's choice
  std::string device = "cpu";
  std::string precision = "fp64";
};

struct ValidationPlan {
  std::string source;
  double k = 3.0;
  ToleranceRule tolerance;
  std::vector<ValidationCase> cases;
};

struct ValidationOutcome {
  ValidationCase spec;
  std::optional<PriceResult> result;
  std::optional<ReferenceValue> reference;
  Verdict verdict;
  double tol = 0;
  std::string status;  // PASS, FAIL, NO-REF, ERROR
  std::string message; // why, for NO-REF and ERROR
};

// harness/presets/validation/<name>.json, or a path.
ValidationPlan load_validation_plan(const std::string& name_or_path);
ValidationOutcome validate_case(const ValidationPlan& plan, const ValidationCase& c, int threads = 0);
// A table of outcomes: product, solver, grid, price, reference, error, allowance, verdict.
std::string validation_table(const std::vector<ValidationOutcome>& outcomes);

}  // namespace elsbench
