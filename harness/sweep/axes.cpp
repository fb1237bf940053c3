#include "harness/sweep/axes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "harness/run/case_limits.hpp"
#include "harness/sweep/axis.hpp"
#include "platform/input_error.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

std::string declared_keys() {
  std::string out;
  for (const SweepAxis& a : sweep_axes()) out += (out.empty() ? "" : ", ") + a.key;
  return out;
}

// Every value of `values` checked by its axis; a bad one refused naming `where`.
void check_values(const SweepAxis& axis, const nlohmann::json& values, const std::string& source,
                  const std::string& where) {
  for (const auto& v : values) {
    try {
      axis_value(axis, v);
    } catch (const std::invalid_argument& e) {
      throw InputError(source, where, e.what());
    }
  }
}

SweepAxes axes_from_json(const nlohmann::json& j, const std::string& source, const std::string& field) {
  if (!j.is_object()) throw InputError(source, field, "expected an object");
  SweepAxes a;
  for (const auto& item : j.items()) {
    const std::string where = field + "." + item.key();
    const SweepAxis* axis = find_sweep_axis(item.key());
    if (!axis) throw InputError(source, where, "unknown axis (expected " + declared_keys() + ")");
    if (!item.value().is_array()) throw InputError(source, where, "expected an array of values");
    check_values(*axis, item.value(), source, where);
    a.set(item.key(), item.value());
  }
  return a;
}

}  // namespace

const nlohmann::json& SweepAxes::of(const std::string& key) const {
  static const nlohmann::json none = nlohmann::json::array();
  const auto it = values.find(key);
  return it == values.end() ? none : it->second;
}

std::vector<std::string> SweepAxes::strings(const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& v : of(key)) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

bool SweepAxes::empty() const {
  return std::all_of(values.begin(), values.end(), [](const auto& kv) { return kv.second.empty(); });
}

void SweepAxes::overlay(const SweepAxes& top) {
  for (const auto& [key, list] : top.values)
    if (!list.empty()) values[key] = list;
}

nlohmann::json to_json(const SweepAxes& a) {
  nlohmann::json j = nlohmann::json::object();
  for (const SweepAxis& axis : sweep_axes()) j[axis.key] = a.of(axis.key);
  return j;
}

void complete(SweepAxes& a, const std::string& source, const std::string& field) {
  for (const SweepAxis& axis : sweep_axes()) {
    const std::string where = field + "." + axis.key;
    if (!a.of(axis.key).empty()) {
      check_values(axis, a.of(axis.key), source, where);
    } else if (axis.defaults.is_null()) {
      throw InputError(source, where, "no values: the axis is required");
    } else {
      a.set(axis.key, axis.defaults);
    }
  }
}

Device parse_sweep_device(const std::string& s) {
  if (s == "auto") throw std::invalid_argument("a sweep names its devices: cpu, cpu:tN or cuda:N, not auto");
  Device d = parse_device(s);
  if (d.is_cpu()) d.threads = resolved_threads(d);
  return d;
}

void check_timing(const std::string& key, double value, const std::string& source, const std::string& field) {
  const double high = key == "target" ? 1.0 : key == "max_seconds" ? 86400.0 : kMaxRepetitions;
  const double low = key == "max_repetitions" ? 2.0 : 0.0;
  if (!(value >= low && value <= high))
    throw InputError(source, field,
                     "expected a number in [" + nlohmann::json(low).dump() + ", " + nlohmann::json(high).dump() + "]");
  if (key == "max_repetitions" && value != std::floor(value)) throw InputError(source, field, "expected a whole number");
}

TimingRule timing_rule_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "timing", "expected an object (target, max_seconds, max_repetitions)");
  TimingRule rule;
  const auto number = [&](const std::string& key) -> std::optional<double> {
    if (!j.contains(key)) return std::nullopt;
    if (!j[key].is_number()) throw InputError(source, "timing." + key, "expected a number");
    check_timing(key, j[key].get<double>(), source, "timing." + key);
    return j[key].get<double>();
  };
  for (const auto& [key, value] : j.items())
    if (key != "target" && key != "max_seconds" && key != "max_repetitions")
      throw InputError(source, "timing." + key, "unknown key (expected target, max_seconds, max_repetitions)");
  rule.target = number("target").value_or(rule.target);
  rule.max_seconds = number("max_seconds").value_or(rule.max_seconds);
  if (const auto most = number("max_repetitions")) rule.max_repetitions = static_cast<int>(*most);
  return rule;
}

nlohmann::json to_json(const TimingRule& rule) {
  return {{"target", rule.target}, {"max_seconds", rule.max_seconds}, {"max_repetitions", rule.max_repetitions}};
}

SweepSpec sweep_spec_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "(top level)", "expected an object");
  for (const auto& [key, value] : j.items())
    if (key != "name" && key != "description" && key != "repetitions" && key != "timing" && key != "grid" &&
        key != "tolerance" && key != "axes" && key != "groups" && key != "error_estimate" && key != "target_error")
      throw InputError(source, key,
                       "unknown key (expected name, description, repetitions, timing, grid, tolerance, error_estimate, "
                       "target_error, axes, groups)");
  SweepSpec spec;
  if (j.contains("name")) {
    if (!j["name"].is_string()) throw InputError(source, "name", "expected a string");
    spec.preset = j["name"].get<std::string>();
  }
  if (j.contains("description")) {
    if (!j["description"].is_string()) throw InputError(source, "description", "expected a string");
    spec.description = j["description"].get<std::string>();
  }
  if (j.contains("repetitions")) {
    if (!j["repetitions"].is_number_integer() || j["repetitions"].get<long long>() < 2 ||
        j["repetitions"].get<long long>() > kMaxRepetitions)
      throw InputError(source, "repetitions",
                       "expected a whole number in [2, " + std::to_string(kMaxRepetitions) +
                           "] (Google Benchmark needs two to aggregate)");
    spec.repetitions = j["repetitions"].get<int>();
  }
  if (j.contains("timing")) spec.timing = timing_rule_from_json(j["timing"], source);
  if (j.contains("error_estimate")) {
    if (!j["error_estimate"].is_boolean()) throw InputError(source, "error_estimate", "expected true or false");
    spec.error_estimate = j["error_estimate"].get<bool>();
  }
  if (j.contains("target_error")) {
    if (!j["target_error"].is_string()) throw InputError(source, "target_error", "expected a string (\"0.5bp\", \"0.01\")");
    try {
      spec.target = parse_error_target(j["target_error"].get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw InputError(source, "target_error", e.what());
    }
    if (spec.error_estimate) throw InputError(source, "error_estimate", "the error bar of target_error is the estimate");
  }
  if (j.contains("grid")) spec.grid = grid_from_json(j["grid"], source, "grid", GridKeys::Mesh);
  if (j.contains("tolerance")) spec.tolerance = tolerance_rule_from_json(j["tolerance"], source);
  const SweepAxes defaults = j.contains("axes") ? axes_from_json(j["axes"], source, "axes") : SweepAxes{};
  if (j.contains("groups")) {
    if (!j["groups"].is_array() || j["groups"].empty())
      throw InputError(source, "groups", "expected a non-empty array of axis objects");
    for (std::size_t i = 0; i < j["groups"].size(); ++i) {
      const std::string field = "groups[" + std::to_string(i) + "]";
      SweepAxes g = defaults;
      g.overlay(axes_from_json(j["groups"][i], source, field));
      complete(g, source, field);
      spec.groups.push_back(g);
    }
  } else {
    spec.groups.push_back(defaults);
    complete(spec.groups.back(), source, "axes");
  }
  return spec;
}

nlohmann::json to_json(const SweepSpec& spec) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : spec.groups) groups.push_back(to_json(g));
  nlohmann::json j = {{"name", spec.preset},
          {"description", spec.description},
          {"repetitions", spec.repetitions},
          {"timing", to_json(spec.timing)},
          {"grid", to_json(spec.grid, GridKeys::Mesh)},
          {"tolerance", to_json(spec.tolerance)},
          {"error_estimate", spec.error_estimate},
          {"groups", groups}};
  if (spec.target) j["target_error"] = spec.target->text;  // absent otherwise, as in older files
  return j;
}

}  // namespace elsbench
