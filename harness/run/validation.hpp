#pragma once
// The validation gate: the cases of a preset (product x solver x grid) run by the one case runner
// without timing, each price judged against a reference no solver under test produced, by the
// rule |price - reference| <= k * stderr + tol.
#include <map>
#include <string>
#include <vector>

#include "harness/references/reference_policy.hpp"
#include "harness/run/case_run.hpp"

namespace elsbench {

struct ValidationPlan {
  std::string source;
  CaseSettings settings;         // k and the tolerance rule; untimed
  std::vector<SweepCase> cases;
  std::map<std::string, Product> products;  // by id, as the preset named them (catalog id or file)
  ReferencePolicy references;               // stored by default; auto computes what is missing
};

// The product a case of the plan names: as the preset loaded it, else resolved by id or path.
Product plan_product(const ValidationPlan& plan, const std::string& id);
// One case of the plan (or any case, priced with the plan's settings).
CaseOutcome validate_case(const ValidationPlan& plan, const SweepCase& c);

}  // namespace elsbench
