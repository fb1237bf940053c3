#include "harness/run/validation.hpp"

#include "products/catalog.hpp"

namespace elsbench {

Product plan_product(const ValidationPlan& plan, const std::string& id) {
  const auto known = plan.products.find(id);
  return known != plan.products.end() ? known->second : resolve_product(id);
}

CaseOutcome validate_case(const ValidationPlan& plan, const SweepCase& c) {
  const Product product = plan_product(plan, c.product);
  return run_case(c, product, plan.settings, reference_for(product, plan.references));
}

}  // namespace elsbench
