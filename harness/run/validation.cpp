#include "harness/run/validation.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness/run/case_limits.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/problem/grid_codec.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

// The keys of a case besides the grid codec's.
const char* const kCaseKeys[] = {"product", "solver", "scheme", "device", "precision"};

// A case's grid through the grid codec, as the CLI's flags and a sweep's read it: n (nodes per
// axis, or [N1, N2, N3]) required, nt and the other grid keys optional, the latter the case's own
// settings over the preset's grid (SweepCase::grid).
void case_grid(const nlohmann::json& j, const std::string& source, const std::string& field, SweepCase& c) {
  if (!j.contains("n")) throw InputError(source, field + ".n", "missing");
  nlohmann::json given = nlohmann::json::object();
  for (const std::string& key : grid_keys(GridKeys::All))
    if (j.contains(key)) given[key] = j[key];
  const GridOptions g = grid_from_json(given, source, field, GridKeys::All);
  c.n = g.n;
  c.axis_nodes = g.axis_nodes;
  if (g.nt) {
    if (*g.nt > kMaxTimeSteps)
      throw InputError(source, field + ".nt",
                       "expected a whole number in [1, " + std::to_string(static_cast<long long>(kMaxTimeSteps)) + "]");
    c.nt = parse_nt_rule("fixed:" + std::to_string(*g.nt));
  }
  const nlohmann::json normal = to_json(g, GridKeys::Mesh);
  for (const auto& item : given.items())
    if (item.key() != "n" && item.key() != "nt") c.grid[item.key()] = normal[item.key()];
}

// A case of the preset: product, solver (scheme), device, precision and its grid. The product and
// solver must exist: a bad preset is refused before the first case runs.
SweepCase case_from_json(const nlohmann::json& j, const std::string& source, const std::string& field,
                         std::map<std::string, Product>& products) {
  if (!j.is_object()) throw InputError(source, field, "expected an object");
  const std::vector<std::string> grid = grid_keys(GridKeys::All);
  for (const auto& item : j.items())
    if (std::find(std::begin(kCaseKeys), std::end(kCaseKeys), item.key()) == std::end(kCaseKeys) &&
        std::find(grid.begin(), grid.end(), item.key()) == grid.end())
      throw InputError(source, field + "." + item.key(),
                       "unknown key (expected product, solver, scheme, device, precision or a grid key)");
  SweepCase c;
  const auto text = [&](const char* key, bool required, const std::string& fallback = "") {
    if (!j.contains(key)) {
      if (required) throw InputError(source, field + "." + key, "missing");
      return fallback;
    }
    if (!j[key].is_string()) throw InputError(source, field + "." + key, "expected a string");
    return j[key].get<std::string>();
  };
  const auto parsed = [&](const char* key, auto parse, const std::string& value) {
    try {
      return parse(value);
    } catch (const std::invalid_argument& e) {
      throw InputError(source, field + "." + key, e.what());
    }
  };
  const Product product = resolve_product(text("product", true));
  c.product = product.id;
  products.insert_or_assign(product.id, product);
  c.solver = text("solver", true);
  if (!SolverRegistry::instance().find(c.solver))
    parsed("solver", [](const std::string& name) { return SolverRegistry::instance().get(name).name; }, c.solver);
  c.scheme = text("scheme", false);
  c.device = parsed("device", parse_device, text("device", false, "cpu"));
  c.precision = parsed("precision", parse_precision, text("precision", false, "fp64"));
  case_grid(j, source, field, c);
  return c;
}

}  // namespace

ValidationPlan load_validation_plan(const std::string& name_or_path) {
  const std::string path = shipped_or_given(name_or_path, project_root() + "/harness/presets/validation");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(name_or_path, "--preset", "no such validation preset or file");
  const nlohmann::json j = parse_json(read_input(path, {kMaxPresetBytes, "a preset may hold"}), path, "<file>");
  ValidationPlan plan;
  plan.source = path;
  if (!j.is_object()) throw InputError(path, "(top level)", "expected an object");
  if (j.contains("k")) {
    if (!j["k"].is_number() || !(j["k"].get<double>() > 0)) throw InputError(path, "k", "expected a number > 0");
    plan.settings.k = j["k"].get<double>();
  }
  if (j.contains("tolerance")) plan.settings.tolerance = tolerance_rule_from_json(j["tolerance"], path);
  if (j.contains("grid")) plan.settings.grid = grid_from_json(j["grid"], path, "grid", GridKeys::Mesh);
  if (!j.contains("cases") || !j["cases"].is_array() || j["cases"].empty())
    throw InputError(path, "cases", "expected a non-empty array of cases");
  for (std::size_t i = 0; i < j["cases"].size(); ++i)
    plan.cases.push_back(case_from_json(j["cases"][i], path, "cases[" + std::to_string(i) + "]", plan.products));
  return plan;
}

Product plan_product(const ValidationPlan& plan, const std::string& id) {
  const auto known = plan.products.find(id);
  return known != plan.products.end() ? known->second : resolve_product(id);
}

CaseOutcome validate_case(const ValidationPlan& plan, const SweepCase& c) {
  const Product product = plan_product(plan, c.product);
  return run_case(c, product, plan.settings, reference_for(product, plan.references));
}

}  // namespace elsbench
