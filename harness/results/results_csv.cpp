#include "harness/results/results_csv.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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
const char* const kPairs[] = {"12", "13", "23"};  // the order of a result's cross_gamma
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

namespace {

using Row = std::map<std::string, std::string>;

// The Greeks per asset: delta_1 .. delta_3, gamma_1, ..., then cross_gamma_12, _13, _23, appended to `c`.
void add_greek_columns(std::vector<std::string>& c) {
  for (const char* greek : kGreeks)
    for (std::size_t k = 1; k <= kMaxAssets; ++k) c.push_back(std::string(greek) + "_" + std::to_string(k));
  for (const char* pair : kPairs) c.push_back(std::string("cross_gamma_") + pair);
}

// The columns of a sweep's CSV, in order.
std::vector<std::string> sweep_columns() {
  std::vector<std::string> c(std::begin(kFields), std::end(kFields));
  c.push_back("repetitions");
  for (const char* a : kAggregates) c.push_back(std::string(a) + "_ms");
  c.push_back("line");
  add_greek_columns(c);
  return c;
}

// A book's: what a desk reads first (identifiers, size, price, its bar and status, the Greeks),
// then every column of a sweep's that is not already there.
std::vector<std::string> book_columns() {
  std::vector<std::string> c = {"product", "isin", "tags", "notional", "underlyings", "price", "price_pct_notional",
                                "error_bar", "status"};
  add_greek_columns(c);
  for (const char* f : {"rho", "theta", "greek_units", "line"}) c.push_back(f);
  for (const std::string& s : sweep_columns())
    if (std::find(c.begin(), c.end(), s) == c.end()) c.push_back(s);
  return c;
}

Row case_row(const std::map<std::string, const json*>& by_name) {
  const json& first = *by_name.begin()->second;
  Row row;
  for (const char* f : kFields) row[f] = csv_cell(first.value(f, json()));
  for (const char* f : {"line", "isin", "notional", "underlyings", "price_pct_notional"})
    row[f] = csv_cell(first.value(f, json()));
  std::string tags;
  for (const json& t : first.value("tags", json::array())) tags += (tags.empty() ? "" : ";") + t.get<std::string>();
  row["tags"] = csv_cell(tags);
  row["repetitions"] = std::to_string(first.value("repetitions", 0));
  const bool skipped = entry_status(first) == CaseStatus::Skipped;
  for (const char* a : kAggregates) {
    const auto it = by_name.find(a);
    row[std::string(a) + "_ms"] = it == by_name.end() || skipped ? "" : csv_cell(it->second->value("real_time", json()));
  }
  for (const char* greek : kGreeks) {
    const json values = first.value(greek, json());
    for (std::size_t k = 0; k < kMaxAssets; ++k)
      row[std::string(greek) + "_" + std::to_string(k + 1)] = values.is_array() && k < values.size() ? csv_cell(values[k]) : "";
  }
  // A two-asset note's one pair is (1,2); a three-asset note's (1,2), (1,3), (2,3).
  const json cross = first.value("cross_gamma", json());
  for (std::size_t k = 0; k < std::size(kPairs); ++k)
    row[std::string("cross_gamma_") + kPairs[k]] = cross.is_array() && k < cross.size() ? csv_cell(cross[k]) : "";
  return row;
}

// A book's bad line as a row: status "bad-line", its line, and the refusal in skip_reason.
Row bad_line_row(const json& bad) {
  return {{"status", "bad-line"}, {"line", csv_cell(bad.value("line", json()))},
          {"skip_reason", csv_cell(bad.value("message", json()))}};
}

void write_row(std::ostringstream& out, const std::vector<std::string>& columns, const Row& row) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto it = row.find(columns[i]);
    out << (i ? "," : "") << (it == row.end() ? "" : it->second);
  }
  out << '\n';
}

}  // namespace

std::string results_csv(const ResultsFile& file) {
  static const json kNone = json::object();
  const json& elsbench = file.context.contains("elsbench") ? file.context.at("elsbench") : kNone;
  const bool book = elsbench.is_object() && elsbench.value("preset", "") == "book";
  const std::vector<std::string> columns = book ? book_columns() : sweep_columns();
  std::ostringstream out;
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
  out << '\n';
  // Aggregates by case, so a case's row can be written where the case first appears.
  std::map<std::string, std::map<std::string, const json*>> aggregates;
  for (const auto& e : file.benchmarks)
    if (e.value("run_type", "") == "aggregate")
      aggregates[e.value("case_id", "")][e.value("aggregate_name", "")] = &e;
  for (const auto& id : file.case_ids())
    if (const auto& by_name = aggregates[id]; !by_name.empty()) write_row(out, columns, case_row(by_name));
  if (book && elsbench.contains("book") && elsbench["book"].contains("bad_lines"))
    for (const json& bad : elsbench["book"]["bad_lines"]) write_row(out, columns, bad_line_row(bad));
  return out.str();
}

}  // namespace elsbench
