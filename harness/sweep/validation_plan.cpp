#include "harness/sweep/validation_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness/run/case_limits.hpp"
#include "harness/sweep/axis.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "products/catalog.hpp"
#include "solvers/problem/grid_codec.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

// A case's keys that are sweep axes, by the axis that reads them (a case names one value of each).
const std::pair<const char*, const char*> kAxisKeys[] = {
    {"product", "products"}, {"solver", "solvers"}, {"scheme", "schemes"}, {"device", "devices"}, {"precision", "precisions"}};

const char* axis_of(const std::string& key) {
  for (const auto& [case_key, axis] : kAxisKeys)
    if (key == case_key) return axis;
  return nullptr;
}

// A case's grid through the grid codec, as the CLI's flags read it: n (nodes per axis, or
// [N1, N2, N3]) required, nt and the other grid keys optional, the latter the case's own
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

// The value a case gives an axis: its own, else the axis's default (a device "cpu" with --threads
// as cpu:tN); null where the axis takes none (the schemes axis: the solver's default).
nlohmann::json axis_entry(const SweepAxis& axis, const nlohmann::json& j, const char* key, int threads) {
  nlohmann::json value = j.contains(key) ? axis_value(axis, j[key])
                         : axis.defaults.is_array() && !axis.defaults.empty() ? axis.defaults[0]
                                                                               : nlohmann::json();
  if (axis.key == "devices" && threads > 0 && value == "cpu") value = "cpu:t" + std::to_string(threads);
  return value;
}

// One case of the preset: its axis keys entered in the sweep's order, then its grid.
SweepCase case_from_json(const nlohmann::json& j, const std::string& source, const std::string& field,
                         std::map<std::string, Product>& products, int threads) {
  if (!j.is_object()) throw InputError(source, field, "expected an object");
  const std::vector<std::string> grid = grid_keys(GridKeys::All);
  for (const auto& item : j.items())
    if (!axis_of(item.key()) && std::find(grid.begin(), grid.end(), item.key()) == grid.end())
      throw InputError(source, field + "." + item.key(),
                       "unknown key (expected product, solver, scheme, device, precision or a grid key)");
  for (const char* required : {"product", "solver"})
    if (!j.contains(required)) throw InputError(source, field + "." + required, "missing");
  SweepCase c;
  for (const SweepAxis& axis : sweep_axes()) {
    const auto named = std::find_if(std::begin(kAxisKeys), std::end(kAxisKeys),
                                    [&](const auto& k) { return axis.key == k.second; });
    if (named == std::end(kAxisKeys)) continue;  // n and nt come with the grid; a case is one note
    const std::string where = field + "." + named->first;
    try {
      const std::vector<SweepCase> entered = axis.enter(c, axis_entry(axis, j, named->first, threads));
      if (entered.size() != 1) throw std::invalid_argument("names " + std::to_string(entered.size()) + " cases, not one");
      c = entered.front();
    } catch (const std::invalid_argument& e) {
      throw InputError(source, where, e.what());
    }
  }
  try {
    const Product product = resolve_product(c.product);
    c.product = product.id;
    products.insert_or_assign(product.id, product);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(source, field + ".product", e.what());
  }
  case_grid(j, source, field, c);
  return c;
}

}  // namespace

ValidationPlan load_validation_plan(const std::string& name_or_path, int threads) {
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
    plan.cases.push_back(
        case_from_json(j["cases"][i], path, "cases[" + std::to_string(i) + "]", plan.products, threads));
  return plan;
}

}  // namespace elsbench
