#include "harness/results/results_csv.hpp"

#include <map>
#include <sstream>

namespace elsbench {
namespace {

using nlohmann::json;

// Case fields copied as they are, in this order.
const char* const kFields[] = {
    "case_id",       "product",          "solver",          "scheme",       "n",
    "nt",            "nt_rule",          "grid_points",     "layers",       "time_steps",
    "device",        "threads",          "precision",       "status",       "skip_reason",
    "price",         "reference",        "reference_stderr", "reference_source", "error",
    "tol",           "allowance",        "estimated_error", "extrapolated_price", "error_bar", "priced_n", "seconds",         "seconds_per_step", "points_per_second",
    "peak_host_bytes", "peak_device_bytes", "process_peak_rss_bytes", "memory_space", "model_bytes_per_point",
    "model_bytes",   "measured_device_bytes", "book", "notes_per_second", "median_interval", "timing_stop",
    "noisy",         "noise",            "rho",             "theta",        "greek_units"};
const char* const kAggregates[] = {"median", "mean", "stddev", "min"};
// Then a book's line, and the Greeks per asset.
const char* const kGreeks[] = {"delta", "gamma", "vega"};
constexpr std::size_t kMaxAssets = 3;

}  // namespace

std::string csv_cell(const json& v) {
  if (v.is_null()) return "";
  if (v.is_number_float()) {
    std::ostringstream s;
    s.precision(17);
    s << v.get<double>();
    return s.str();
  }
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string results_csv(const ResultsFile& file) {
  std::ostringstream out;
  for (const char* f : kFields) out << f << ',';
  out << "repetitions";
  for (const char* a : kAggregates) out << ',' << a << "_ms";
  out << ",line";
  for (const char* greek : kGreeks)
    for (std::size_t k = 1; k <= kMaxAssets; ++k) out << ',' << greek << '_' << k;
  out << '\n';
  // Aggregates by case, so a case's row can be written where the case first appears.
  std::map<std::string, std::map<std::string, const json*>> aggregates;
  for (const auto& e : file.benchmarks)
    if (e.value("run_type", "") == "aggregate")
      aggregates[e.value("case_id", "")][e.value("aggregate_name", "")] = &e;
  for (const auto& id : file.case_ids()) {
    const auto& by_name = aggregates[id];
    if (by_name.empty()) continue;
    const json& first = *by_name.begin()->second;
    for (const char* f : kFields) out << csv_cell(first.value(f, json())) << ',';
    out << first.value("repetitions", 0);
    const bool skipped = first.value("status", "") == "skipped";
    for (const char* a : kAggregates) {
      const auto it = by_name.find(a);
      out << ',' << (it == by_name.end() || skipped ? "" : csv_cell(it->second->value("real_time", json())));
    }
    out << ',' << csv_cell(first.value("line", json()));
    for (const char* greek : kGreeks) {
      const json values = first.value(greek, json());
      for (std::size_t k = 0; k < kMaxAssets; ++k)
        out << ',' << (values.is_array() && k < values.size() ? csv_cell(values[k]) : "");
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace elsbench
