#include "harness/results/results_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "platform/sha256.hpp"

namespace elsbench {
namespace fs = std::filesystem;

std::vector<std::string> ResultsFile::case_ids() const {
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (const auto& e : benchmarks) {
    const std::string id = e.value("case_id", "");
    if (!id.empty() && seen.insert(id).second) ids.push_back(id);
  }
  return ids;
}

void ResultsFile::put_case(const std::string& case_id, const nlohmann::json& entries) {
  nlohmann::json kept = nlohmann::json::array();
  for (auto& e : benchmarks)
    if (e.value("case_id", "") != case_id) kept.push_back(std::move(e));
  for (const auto& e : entries) kept.push_back(e);
  benchmarks = std::move(kept);
}

void ResultsFile::sort_cases(const std::vector<std::string>& order) {
  std::map<std::string, std::size_t> rank;
  for (std::size_t i = 0; i < order.size(); ++i) rank.emplace(order[i], i);
  const auto position = [&](const nlohmann::json& e) {
    const auto it = rank.find(e.value("case_id", ""));
    return it == rank.end() ? order.size() : it->second;
  };
  std::vector<nlohmann::json> entries(benchmarks.begin(), benchmarks.end());
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const nlohmann::json& a, const nlohmann::json& b) { return position(a) < position(b); });
  benchmarks = entries;
}

namespace {

// The keys of context.elsbench that a resume reads, checked so that a damaged one is refused by
// name (RESULTS_SCHEMA.md) rather than failing inside the resume.
void check_context(const nlohmann::json& els, const std::string& path) {
  const auto field = [&](const char* key) { return std::string("context.elsbench.") + key; };
  const auto present = [&](const char* key) { return els.contains(key) && !els[key].is_null(); };
  const auto require = [&](bool ok, const std::string& where, const std::string& what) {
    if (!ok) throw InputError(path, where, what);
  };
  if (present("running")) {
    const auto& r = els["running"];
    require(r.is_object() && r.contains("case_id") && r["case_id"].is_string() && r.contains("attempts") &&
                r["attempts"].is_number_integer() && r["attempts"].get<long long>() >= 0,
            field("running"), "expected {\"case_id\": string, \"attempts\": whole number >= 0}");
  }
  for (const char* key : {"sweep", "machine", "references"})
    if (present(key)) require(els[key].is_object(), field(key), "expected an object");
  if (present("machine"))
    for (const auto& [key, value] : els["machine"].items())
      if (key == "hostname" || key == "git_commit" || key == "instance")
        require(value.is_string(), field("machine") + "." + key, "expected a string");
  if (present("resumed")) require(els["resumed"].is_array(), field("resumed"), "expected an array");
  if (present("references")) {
    const auto& r = els["references"];
    for (const char* key : {"mode", "store", "device"})
      if (r.contains(key)) require(r[key].is_string(), field("references") + "." + key, "expected a string");
    for (const char* key : {"target_fraction", "budget_seconds"})
      if (r.contains(key))
        require(r[key].is_number() && std::isfinite(r[key].get<double>()) && r[key].get<double>() > 0,
                field("references") + "." + key, "expected a finite number > 0");
    if (r.contains("seed"))
      require(r["seed"].is_number_integer() && r["seed"].get<long long>() >= 0 &&
                  r["seed"].get<long long>() < (1LL << 53),
              field("references.seed"), "expected a whole number in [0, 2^53)");
  }
}

}  // namespace

std::optional<CaseStatus> entry_status(const nlohmann::json& entry) {
  const auto status = entry.find("status");
  if (status == entry.end() || !status->is_string()) return std::nullopt;
  return parse_case_status(status->get<std::string>());
}

namespace {

// The case fields its readers use (resume, compare, the report): each, where present and not null,
// of its type.
constexpr const char* kCaseStrings[] = {"name",     "run_type", "aggregate_name",   "product", "solver",
                                        "scheme",   "device",   "precision",        "mesh",    "skip_reason",
                                        "noise",    "timing_stop", "reference_source"};
constexpr const char* kCaseNumbers[] = {
    "reference",  "reference_stderr", "error",           "tol",       "allowance",     "peak_host_bytes",
    "peak_device_bytes", "model_bytes_per_point", "seconds_per_step", "points_per_second", "cpu_time",
    "threads",    "n",                "nt",              "grid_points", "time_steps",  "layers",
    "median_interval", "repetitions_run"};
bool finite_number(const nlohmann::json& j) { return j.is_number() && std::isfinite(j.get<double>()); }

// The typed fields, the time and its unit, and the grid's shape.
void check_case_fields(const nlohmann::json& entry, const std::string& origin, const std::string& where) {
  const auto given = [&](const char* key) { return entry.contains(key) && !entry[key].is_null(); };
  for (const char* key : kCaseStrings)
    if (given(key) && !entry[key].is_string()) throw InputError(origin, where + "." + key, "not a string");
  for (const char* key : kCaseNumbers)
    if (given(key) && !finite_number(entry[key])) throw InputError(origin, where + "." + key, "not a finite number");
  // Absent, the unit is Google Benchmark's default; given, it is one of its units (null is none).
  if (entry.contains("time_unit")) {
    const auto& unit = entry["time_unit"];
    if (!unit.is_string()) throw InputError(origin, where + ".time_unit", "not a string");
    if (!seconds_per_time_unit(unit.get<std::string>()))
      throw InputError(origin, where + ".time_unit", "expected one of ns, us, ms, s, got '" + unit.get<std::string>() + "'");
  }
  if (!entry.contains("real_time") || !finite_number(entry["real_time"]))
    throw InputError(origin, where + ".real_time", "missing or not a finite number");
  if (given("shape")) {
    const auto& shape = entry["shape"];
    if (!shape.is_array() || !std::all_of(shape.begin(), shape.end(), [](const auto& n) { return n.is_number_integer(); }))
      throw InputError(origin, where + ".shape", "expected an array of whole numbers");
  }
}

}  // namespace

std::optional<double> seconds_per_time_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  return std::nullopt;
}

void check_results_entry(const nlohmann::json& entry, const std::string& origin, const std::string& where) {
  if (!entry.is_object()) throw InputError(origin, where, "expected an object, got " + std::string(entry.type_name()));
  const auto id = entry.find("case_id");
  if (id == entry.end() || !id->is_string()) throw InputError(origin, where + ".case_id", "missing or not a string");
  const auto status = entry.find("status");
  if (status == entry.end() || !status->is_string())
    throw InputError(origin, where + ".status", "missing or not a string");
  const std::string word = status->get<std::string>();
  const std::optional<CaseStatus> said = parse_case_status(word);
  if (!said) throw InputError(origin, where + ".status", "unknown status '" + word + "'");
  check_case_fields(entry, origin, where);
  const auto price = entry.find("price");
  // An unconverged case whose price lay outside its no-arbitrage bounds has none (skip_reason says why).
  if (said == CaseStatus::Skipped || (said == CaseStatus::Unconverged && (price == entry.end() || price->is_null())))
    return;
  if (price == entry.end() || !price->is_number() || !std::isfinite(price->get<double>()))
    throw InputError(origin, where + ".price", "a case that ran needs a finite number");
}

ResultsFile read_results_file(const std::string& path, const std::string& as) {
  return results_file_from_text(read_input(path, {kMaxResultsFileBytes, "a results file may hold"}),
                                as.empty() ? path : as);
}

ResultsFile results_file_from_text(std::string_view text, const std::string& path) {
  const nlohmann::json j = parse_json(text, path, "<file>");
  if (!j.is_object() || !j.contains("context") || !j["context"].is_object() || !j.contains("benchmarks") ||
      !j["benchmarks"].is_array())
    throw InputError(path, "<root>", "not a results file (expected a context object and a benchmarks array)");
  const auto& els = j["context"].value("elsbench", nlohmann::json());
  const auto schema = els.is_object() ? els.find("schema") : els.end();
  if (!els.is_object() || schema == els.end() || !schema->is_number_integer() || *schema != kResultsSchema)
    throw InputError(path, "context.elsbench.schema",
                     "not an elsbench results file of schema " + std::to_string(kResultsSchema));
  check_context(els, path);
  for (std::size_t i = 0; i < j["benchmarks"].size(); ++i)
    check_results_entry(j["benchmarks"][i], path, "benchmarks[" + std::to_string(i) + "]");
  ResultsFile f;
  f.context = j["context"];
  f.benchmarks = j["benchmarks"];
  return f;
}

namespace {

// A byte that is not UTF-8 (a bad book line's text, a path) is written as U+FFFD rather than
// losing the whole file.
std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A case given twice is refused (InputError naming the second copy). The writer
// puts a case's entries together, one per repetition (repetition_index) and aggregate, so a case
// seen again after another, or an entry seen twice, is a second copy.
class CaseCopies {
 public:
  void take(const nlohmann::json& entry, std::size_t i, const std::string& origin, const std::string& where) {
    const std::string id = entry["case_id"].get<std::string>();
    const auto [first, fresh] = first_entry_.emplace(id, i);
    std::string key = id;
    for (const char* field : {"run_type", "aggregate_name", "repetition_index"})
      key += "\n" + (entry.contains(field) ? entry[field].dump() : "-");
    const bool repeated = !entry_.emplace(key, i).second && entry.contains("repetition_index");
    if ((!fresh && id != last_) || repeated)
      throw InputError(origin, where + ".case_id",
                       "case '" + id + "' is given twice (first at benchmarks[" + std::to_string(first->second) +
                           "]): a results file holds each case once");
    last_ = id;
  }

 private:
  std::map<std::string, std::size_t> first_entry_, entry_;
  std::string last_;
};

const char* const kChecksumKey = "benchmarks_sha256";

std::string benchmarks_checksum(const nlohmann::json& benchmarks) { return sha256_hex(json_text(benchmarks, -1)); }

}  // namespace

std::string results_file_text(const ResultsFile& file) {
  nlohmann::json doc = {{"context", file.context}, {"benchmarks", file.benchmarks}};
  // The benchmarks read back from this text dump to the same bytes (numbers round-trip, keys are
  // sorted, a replaced byte stays U+FFFD), so a reader recomputes the same checksum.
  doc["context"]["elsbench"][kChecksumKey] = benchmarks_checksum(file.benchmarks);
  return json_text(doc, 2) + "\n";
}

void check_resumable(const ResultsFile& file, const std::string& path) {
  const nlohmann::json& els = file.elsbench();
  const std::string field = std::string("context.elsbench.") + kChecksumKey;
  const auto sum = els.find(kChecksumKey);
  if (sum == els.end() || !sum->is_string())
    throw InputError(path, field,
                     "missing: the file was not written by this elsbench (or was edited); nothing of it is kept "
                     "by --resume: price into another --out");
  if (sum->get<std::string>() != benchmarks_checksum(file.benchmarks))
    throw InputError(path, field,
                     "the benchmarks differ from what elsbench wrote (an entry edited, added or removed); "
                     "nothing of it is kept by --resume: price into another --out");
  check_each_case_once(file.benchmarks, path);
}

void check_each_case_once(const nlohmann::json& benchmarks, const std::string& origin) {
  CaseCopies copies;
  for (std::size_t i = 0; i < benchmarks.size(); ++i)
    copies.take(benchmarks[i], i, origin, "benchmarks[" + std::to_string(i) + "]");
}

std::string default_results_path(const std::string& root, const std::string& machine_slug, const std::string& date,
                                 const std::string& commit) {
  const fs::path dir = fs::path(root) / "results" / machine_slug;
  const std::string stem = date + "-" + commit;
  fs::path candidate = dir / (stem + ".json");
  for (int k = 2; fs::exists(candidate); ++k) candidate = dir / (stem + "-" + std::to_string(k) + ".json");
  return candidate.string();
}

}  // namespace elsbench
