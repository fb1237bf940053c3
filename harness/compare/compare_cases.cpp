#include "harness/compare/compare_cases.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "harness/results/results_file.hpp"
#include "platform/input_error.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

double seconds_per_unit(const std::string& unit, const std::string& origin) {
  if (const std::optional<double> s = seconds_per_time_unit(unit)) return *s;
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
  if (c.status) return;
  for (const std::string& axis : comparable_axes())
    if (const auto it = entry.find(axis); it != entry.end() && !it->is_null())
      c.axes[axis] = it->is_string() ? it->get<std::string>() : it->dump();
  c.status = entry_status(entry);
  c.skip_reason = entry.value("skip_reason", "");
  c.price = number_or_null(entry, "price");
  c.reference_stderr = number_or_null(entry, "reference_stderr");
  c.noisy = entry.value("noisy", false);
}

void take_timing(CaseRecord& c, const json& entry, const std::string& origin) {
  const std::string run_type = entry.value("run_type", "iteration");
  if (run_type == "iteration") c.repetition_seconds.push_back(real_seconds(entry, origin));
  if (run_type == "aggregate" && entry.value("aggregate_name", "") == "median" && c.status != CaseStatus::Skipped)
    c.median_seconds = real_seconds(entry, origin);
}

// Where a file's times and prices came from (context.elsbench.machine).
RunProvenance provenance_of(const json& context) {
  const json meta = context.value("elsbench", json::object());
  const json machine = meta.value("machine", json::object());
  RunProvenance p;
  p.commit = machine.value("git_commit", "");
  p.started = meta.value("started", "");
  p.machine = machine.value("hostname", "") + ", " + machine.value("cpu_model", "") + " x" +
              std::to_string(machine.value("cores", 0));
  for (const auto& gpu : machine.value("gpus", json::array())) p.machine += ", " + gpu.value("name", "");
  const json book = meta.value("book", json::object());
  if (book.is_object() && book.contains("settings") && book["settings"].is_object())
    for (const auto& [key, value] : book["settings"].items())
      if (key != "book") p.settings[key] = value.dump();
  return p;
}

}  // namespace

CaseTable cases_from_json(const json& results, const std::string& origin) {
  if (!results.is_object() || !results.contains("benchmarks") || !results["benchmarks"].is_array())
    throw InputError(origin, "benchmarks", "not a results file (no 'benchmarks' array)");
  if (results["benchmarks"].empty()) throw InputError(origin, "benchmarks", "empty: the file holds no case");
  CaseTable table;
  for (std::size_t i = 0; i < results["benchmarks"].size(); ++i) {
    const json& entry = results["benchmarks"][i];
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    check_results_entry(entry, origin, where);
    const auto id = entry.find("case_id");
    CaseRecord& c = table[id->get<std::string>()];
    c.case_id = id->get<std::string>();
    take_case_fields(c, entry);
    take_timing(c, entry, origin);
  }
  // A case given twice would make the comparison depend on which copy is read.
  check_each_case_once(results["benchmarks"], origin);
  for (auto& [id, c] : table)
    if (!c.median_seconds && !c.repetition_seconds.empty()) c.median_seconds = median_of(c.repetition_seconds);
  return table;
}

std::vector<std::string> comparable_axes() {
  std::vector<std::string> axes = {"product", "solver", "scheme", "n", "nt", "device", "threads", "precision", "book"};
  for (const std::string& key : grid_keys(GridKeys::Mesh)) axes.push_back(key);
  return axes;
}

std::vector<std::string> axis_values(const CaseTable& cases, const std::string& axis) {
  std::vector<std::string> values;
  for (const auto& [id, c] : cases)
    if (const auto it = c.axes.find(axis);
        it != c.axes.end() && std::find(values.begin(), values.end(), it->second) == values.end())
      values.push_back(it->second);
  return values;
}

std::pair<CaseTable, CaseTable> split_by(const CaseTable& cases, const std::string& axis, const std::string& base_value,
                                         const std::string& new_value, const std::string& origin) {
  const std::vector<std::string> axes = comparable_axes();
  if (std::find(axes.begin(), axes.end(), axis) == axes.end()) {
    std::string known;
    for (const std::string& a : axes) known += (known.empty() ? "" : ", ") + a;
    throw InputError(origin, "--by", "unknown axis '" + axis + "' (expected one of " + known + ")");
  }
  std::pair<CaseTable, CaseTable> sides;
  for (const auto& [id, c] : cases) {
    const auto it = c.axes.find(axis);
    if (it == c.axes.end() || (it->second != base_value && it->second != new_value)) continue;
    // The key: every other axis, so the two sides meet on the same case.
    std::string key;
    for (const std::string& a : axes)
      if (axis != a)
        if (const auto v = c.axes.find(a); v != c.axes.end()) key += (key.empty() ? "" : "/") + v->second;
    CaseRecord keyed = c;
    keyed.case_id = key;
    (it->second == base_value ? sides.first : sides.second)[key] = keyed;
  }
  return sides;
}

// Through the one reader of results files, so that compare accepts what report does and no more
// (a file of another schema, or without its context, was compared as "ok").
CaseTable load_cases(const std::string& path, RunProvenance* provenance) {
  const ResultsFile file = read_results_file(path);
  if (provenance) *provenance = provenance_of(file.context);
  return cases_from_json({{"context", file.context}, {"benchmarks", file.benchmarks}}, path);
}

}  // namespace elsbench
