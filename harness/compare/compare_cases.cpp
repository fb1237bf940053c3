#include "harness/compare/compare_cases.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "platform/input_error.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

double seconds_per_unit(const std::string& unit, const std::string& origin) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw InputError(origin, "time_unit", "unknown unit '" + unit + "'");
}

std::optional<double> number_or_null(const json& entry, const char* key) {
  const auto it = entry.find(key);
  if (it == entry.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

double real_seconds(const json& entry, const std::string& origin) {
  if (!entry.contains("real_time") || !entry["real_time"].is_number())
    throw InputError(origin, "real_time", "missing in entry '" + entry.value("name", "?") + "'");
  return entry["real_time"].get<double>() * seconds_per_unit(entry.value("time_unit", "ns"), origin);
}

double median_of(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const std::size_t h = xs.size() / 2;
  return xs.size() % 2 ? xs[h] : 0.5 * (xs[h - 1] + xs[h]);
}

// The elsbench fields are identical on every entry of a case; the first one seen fills them.
void take_case_fields(CaseRecord& c, const json& entry) {
  if (!c.status.empty()) return;
  c.status = entry.value("status", "");
  c.skip_reason = entry.value("skip_reason", "");
  c.price = number_or_null(entry, "price");
  c.reference_stderr = number_or_null(entry, "reference_stderr");
}

void take_timing(CaseRecord& c, const json& entry, const std::string& origin) {
  const std::string run_type = entry.value("run_type", "iteration");
  if (run_type == "iteration") c.repetition_seconds.push_back(real_seconds(entry, origin));
  if (run_type == "aggregate" && entry.value("aggregate_name", "") == "median" && c.status != "skipped")
    c.median_seconds = real_seconds(entry, origin);
}

// The schema of one entry, checked before any field is used (RESULTS_SCHEMA.md): an object with a
// case id and a status word, and a finite price unless the case was skipped. A damaged file is
// refused, never read as "no regression".
void check_entry(const json& entry, const std::string& origin, const std::string& where) {
  if (!entry.is_object()) throw InputError(origin, where, "expected an object, got " + std::string(entry.type_name()));
  const auto id = entry.find("case_id");
  if (id == entry.end() || !id->is_string()) throw InputError(origin, where + ".case_id", "missing or not a string");
  const auto status = entry.find("status");
  if (status == entry.end() || !status->is_string())
    throw InputError(origin, where + ".status", "missing or not a string");
  const std::string word = status->get<std::string>();
  if (word != "pass" && word != "fail" && word != "no-reference" && word != "unconverged" && word != "skipped")
    throw InputError(origin, where + ".status", "unknown status '" + word + "'");
  if (word == "skipped") return;
  const auto price = entry.find("price");
  if (price == entry.end() || !price->is_number() || !std::isfinite(price->get<double>()))
    throw InputError(origin, where + ".price", "a case that ran needs a finite number");
  for (const char* key : {"time_unit", "run_type", "aggregate_name", "name"})
    if (entry.contains(key) && !entry[key].is_string()) throw InputError(origin, where + "." + key, "not a string");
}

}  // namespace

CaseTable cases_from_json(const json& results, const std::string& origin) {
  if (!results.is_object() || !results.contains("benchmarks") || !results["benchmarks"].is_array())
    throw InputError(origin, "benchmarks", "not a results file (no 'benchmarks' array)");
  if (results["benchmarks"].empty()) throw InputError(origin, "benchmarks", "empty: the file holds no case");
  CaseTable table;
  for (std::size_t i = 0; i < results["benchmarks"].size(); ++i) {
    const json& entry = results["benchmarks"][i];
    check_entry(entry, origin, "benchmarks[" + std::to_string(i) + "]");
    const auto id = entry.find("case_id");
    CaseRecord& c = table[id->get<std::string>()];
    c.case_id = id->get<std::string>();
    take_case_fields(c, entry);
    take_timing(c, entry, origin);
  }
  for (auto& [id, c] : table)
    if (!c.median_seconds && !c.repetition_seconds.empty()) c.median_seconds = median_of(c.repetition_seconds);
  return table;
}

CaseTable load_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "(file)", "cannot open");
  json results;
  try {
    results = json::parse(in);
  } catch (const json::exception& e) {
    throw InputError(path, "(file)", std::string("not valid JSON: ") + e.what());
  }
  return cases_from_json(results, path);
}

}  // namespace elsbench
