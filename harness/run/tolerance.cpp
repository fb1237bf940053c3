#include "harness/run/tolerance.hpp"

#include <algorithm>
#include <cmath>

#include "platform/input_error.hpp"

namespace elsbench {
namespace {

bool matches(const ToleranceOverride& o, const std::string& product, const std::string& solver,
             const std::string& precision, int n) {
  return (o.product.empty() || o.product == product) && (o.solver.empty() || o.solver == solver) &&
         (o.precision.empty() || o.precision == precision) && (o.n == 0 || o.n == n);
}

double positive(const nlohmann::json& j, const char* key, const std::string& source, const std::string& field) {
  if (!j.at(key).is_number() || !(j.at(key).get<double>() >= 0))
    throw InputError(source, field + "." + key, "expected a non-negative number");
  return j.at(key).get<double>();
}

}  // namespace

double ToleranceRule::tol(const std::string& product, const std::string& solver, std::optional<double> solver_c,
                          const std::string& precision, int n, double reference_price, double notional) const {
  double coefficient = solver_c.value_or(c);
  for (const auto& o : overrides) {
    if (!matches(o, product, solver, precision, n)) continue;
    if (o.tol) return *o.tol;
    if (o.c) coefficient = *o.c;
    break;
  }
  const double scale = std::max(std::abs(reference_price), floor_fraction * std::abs(notional));
  const double h = 100.0 / n;
  return coefficient * h * h * scale + (precision == "fp32" ? fp32_relative * scale : 0.0);
}

std::optional<double> fixed_tol(const ToleranceRule& rule, const Product& product) {
  if (!rule.fixed) return std::nullopt;
  return rule.fixed->in_price_units(product);
}

std::string tol_source(const ToleranceRule& rule) { return rule.fixed ? "--tol " + rule.fixed->text : ""; }

ToleranceRule tolerance_rule_from_json(const nlohmann::json& j, const std::string& source) {
  ToleranceRule r;
  if (!j.is_object()) throw InputError(source, "tolerance", "expected an object");
  for (const auto& [key, value] : j.items())
    if (key != "c" && key != "fp32_relative" && key != "floor_fraction" && key != "overrides" && key != "fixed")
      throw InputError(source, "tolerance." + key,
                       "unknown key (expected c, fp32_relative, floor_fraction, overrides, fixed)");
  if (j.contains("fixed")) {
    if (!j["fixed"].is_string()) throw InputError(source, "tolerance.fixed", "expected a string (1bp, 0.01)");
    try {
      r.fixed = parse_error_target(j["fixed"].get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw InputError(source, "tolerance.fixed", e.what());
    }
  }
  if (j.contains("c")) r.c = positive(j, "c", source, "tolerance");
  if (j.contains("fp32_relative")) r.fp32_relative = positive(j, "fp32_relative", source, "tolerance");
  if (j.contains("floor_fraction")) r.floor_fraction = positive(j, "floor_fraction", source, "tolerance");
  if (!j.contains("overrides")) return r;
  if (!j["overrides"].is_array()) throw InputError(source, "tolerance.overrides", "expected an array");
  r.overrides.clear();
  for (std::size_t i = 0; i < j["overrides"].size(); ++i) {
    const auto& o = j["overrides"][i];
    const std::string field = "tolerance.overrides[" + std::to_string(i) + "]";
    if (!o.is_object()) throw InputError(source, field, "expected an object");
    ToleranceOverride x;
    for (const auto& [key, value] : o.items()) {
      if (key == "product" || key == "solver" || key == "precision") {
        if (!value.is_string()) throw InputError(source, field + "." + key, "expected a string");
      } else if (key == "n") {
        if (!value.is_number_integer() || value.get<int>() < 1)
          throw InputError(source, field + ".n", "expected a positive whole number");
      } else if (key != "tol" && key != "c") {
        throw InputError(source, field + "." + key, "unknown key (expected product, solver, precision, n, tol, c)");
      }
    }
    x.product = o.value("product", "");
    x.solver = o.value("solver", "");
    x.precision = o.value("precision", "");
    x.n = o.value("n", 0);
    if (o.contains("tol")) x.tol = positive(o, "tol", source, field);
    if (o.contains("c")) x.c = positive(o, "c", source, field);
    if (x.tol.has_value() == x.c.has_value()) throw InputError(source, field, "give exactly one of tol and c");
    r.overrides.push_back(x);
  }
  return r;
}

nlohmann::json to_json(const ToleranceRule& rule) {
  nlohmann::json overrides = nlohmann::json::array();
  for (const auto& o : rule.overrides) {
    nlohmann::json x = nlohmann::json::object();
    if (!o.product.empty()) x["product"] = o.product;
    if (!o.solver.empty()) x["solver"] = o.solver;
    if (!o.precision.empty()) x["precision"] = o.precision;
    if (o.n) x["n"] = o.n;
    if (o.tol) x["tol"] = *o.tol;
    if (o.c) x["c"] = *o.c;
    overrides.push_back(x);
  }
  nlohmann::json out = {{"c", rule.c},
                        {"fp32_relative", rule.fp32_relative},
                        {"floor_fraction", rule.floor_fraction},
                        {"overrides", overrides}};
  if (rule.fixed) out["fixed"] = rule.fixed->text;
  return out;
}

}  // namespace elsbench
