#include "harness/sweep/axes.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "harness/run/case_limits.hpp"
#include "platform/input_error.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

const char* const kAxisKeys[] = {"solvers", "schemes", "products", "n", "nt_rules", "devices", "precisions", "book"};

std::vector<std::string> strings(const nlohmann::json& j, const std::string& source, const std::string& field) {
  if (!j.is_array()) throw InputError(source, field, "expected an array of strings");
  std::vector<std::string> out;
  for (const auto& x : j) {
    if (!x.is_string() || x.get<std::string>().empty()) throw InputError(source, field, "expected non-empty strings");
    out.push_back(x.get<std::string>());
  }
  return out;
}

SweepAxes axes_from_json(const nlohmann::json& j, const std::string& source, const std::string& field) {
  if (!j.is_object()) throw InputError(source, field, "expected an object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kAxisKeys) known = known || key == k;
    if (!known)
      throw InputError(source, field + "." + key,
                       "unknown axis (expected solvers, schemes, products, n, nt_rules, devices, precisions, book)");
  }
  SweepAxes a;
  const auto list = [&](const char* key, std::vector<std::string>& out) {
    if (j.contains(key)) out = strings(j[key], source, field + "." + key);
  };
  list("solvers", a.solvers);
  list("schemes", a.schemes);
  list("products", a.products);
  list("nt_rules", a.nt_rules);
  list("devices", a.devices);
  list("precisions", a.precisions);
  if (j.contains("n")) {
    if (!j["n"].is_array()) throw InputError(source, field + ".n", "expected an array of grid sizes");
    for (const auto& x : j["n"]) {
      if (!x.is_number_integer() || x.get<long long>() < kMinNodes || x.get<long long>() > kMaxNodes)
        throw InputError(source, field + ".n", "expected whole numbers in [" + std::to_string(kMinNodes) + ", " +
                                                   std::to_string(kMaxNodes) + "]");
      a.n.push_back(x.get<int>());
    }
  }
  if (j.contains("book")) {
    if (!j["book"].is_array()) throw InputError(source, field + ".book", "expected an array of book sizes");
    for (const auto& x : j["book"]) {
      if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > kMaxBookNotes)
        throw InputError(source, field + ".book", "expected whole numbers of notes in [1, " + std::to_string(kMaxBookNotes) + "]");
      a.book.push_back(x.get<int>());
    }
  }
  return a;
}

}  // namespace

nlohmann::json to_json(const SweepAxes& a) {
  return {{"solvers", a.solvers},   {"schemes", a.schemes},   {"products", a.products},
          {"n", a.n},               {"nt_rules", a.nt_rules}, {"devices", a.devices},
          {"precisions", a.precisions}, {"book", a.book}};
}

void complete(SweepAxes& a, const std::string& source, const std::string& field) {
  if (a.nt_rules.empty()) a.nt_rules = {"auto"};
  if (a.devices.empty()) a.devices = {"cpu"};
  if (a.precisions.empty()) a.precisions = {"fp64"};
  if (a.book.empty()) a.book = {1};
  if (a.solvers.empty()) throw InputError(source, field + ".solvers", "no solvers");
  if (a.products.empty()) throw InputError(source, field + ".products", "no products");
  if (a.n.empty()) throw InputError(source, field + ".n", "no grid sizes");
  const auto check = [&](const std::vector<std::string>& values, const char* key, auto parse) {
    for (const auto& v : values) {
      try {
        parse(v);
      } catch (const std::invalid_argument& e) {
        throw InputError(source, field + "." + key, e.what());
      }
    }
  };
  check(a.nt_rules, "nt_rules", parse_nt_rule);
  check(a.devices, "devices", parse_sweep_device);
  check(a.precisions, "precisions", parse_precision);
}

Device parse_sweep_device(const std::string& s) {
  if (s == "auto") throw std::invalid_argument("a sweep names its devices: cpu, cpu:tN or cuda:N, not auto");
  Device d = parse_device(s);
  if (d.is_cpu()) d.threads = resolved_threads(d);
  return d;
}

void SweepAxes::overlay(const SweepAxes& top) {
  const auto take = [](auto& mine, const auto& theirs) {
    if (!theirs.empty()) mine = theirs;
  };
  take(solvers, top.solvers);
  take(schemes, top.schemes);
  take(products, top.products);
  take(n, top.n);
  take(nt_rules, top.nt_rules);
  take(devices, top.devices);
  take(precisions, top.precisions);
  take(book, top.book);
}

SweepSpec sweep_spec_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw InputError(source, "(top level)", "expected an object");
  for (const auto& [key, value] : j.items())
    if (key != "name" && key != "description" && key != "repetitions" && key != "grid" && key != "tolerance" &&
        key != "axes" && key != "groups" && key != "error_estimate")
      throw InputError(source, key,
                       "unknown key (expected name, description, repetitions, grid, tolerance, error_estimate, axes, groups)");
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
  if (j.contains("error_estimate")) {
    if (!j["error_estimate"].is_boolean()) throw InputError(source, "error_estimate", "expected true or false");
    spec.error_estimate = j["error_estimate"].get<bool>();
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
  return {{"name", spec.preset},
          {"description", spec.description},
          {"repetitions", spec.repetitions},
          {"grid", to_json(spec.grid, GridKeys::Mesh)},
          {"tolerance", to_json(spec.tolerance)},
          {"error_estimate", spec.error_estimate},
          {"groups", groups}};
}

}  // namespace elsbench
