#include "harness/sweep/plan.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "harness/sweep/axis.hpp"
#include "products/catalog.hpp"

namespace elsbench {
namespace {

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  return fs::weakly_canonical(a) == fs::weakly_canonical(b);
}

// The product of the declared axes from the `k`th on, each value entering the case planned so far;
// an axis left empty enters once with null (the case keeps its default).
void expand(const SweepAxes& g, std::size_t k, const SweepCase& c, std::vector<SweepCase>& out) {
  const auto& axes = sweep_axes();
  if (k == axes.size()) return out.push_back(c);
  const nlohmann::json& values = g.of(axes[k].key);
  for (const nlohmann::json& v : values.empty() ? nlohmann::json::array({nullptr}) : values)
    for (const SweepCase& next : axes[k].enter(c, v)) expand(g, k + 1, next, out);
}

}  // namespace

SweepPlan plan_sweep(const SweepSpec& spec) {
  SweepPlan plan;
  std::set<std::string> seen;
  for (const auto& g : spec.groups) {
    // Each product file loaded once, before any case: a bad one is refused by name.
    std::map<std::string, std::string> product_ids;
    for (const auto& p : g.strings("products")) {
      Product product = resolve_product(p);
      const auto it = plan.products.find(product.id);
      if (it != plan.products.end() && !same_file(it->second.source, product.source))
        throw std::invalid_argument("two products with id '" + product.id + "': " + it->second.source + " and " +
                                    product.source);
      product_ids[p] = product.id;
      plan.products.emplace(product.id, std::move(product));
    }
    std::vector<SweepCase> cases;
    expand(g, 0, SweepCase{}, cases);
    for (SweepCase& c : cases) {
      c.product = product_ids.at(c.product);
      if (seen.insert(c.id()).second) plan.cases.push_back(c);
    }
  }
  return plan;
}

}  // namespace elsbench
