#include "harness/results/results_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "harness/results/results_csv.hpp"
#include "platform/input_error.hpp"

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

ResultsFile read_results_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "<file>", "cannot open the results file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, "<file>", std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("context") || !j["context"].is_object() || !j.contains("benchmarks") ||
      !j["benchmarks"].is_array())
    throw InputError(path, "<root>", "not a results file (expected a context object and a benchmarks array)");
  const auto& els = j["context"].value("elsbench", nlohmann::json());
  if (!els.is_object() || els.value("schema", 0) != kResultsSchema)
    throw InputError(path, "context.elsbench.schema",
                     "not an elsbench results file of schema " + std::to_string(kResultsSchema));
  ResultsFile f;
  f.context = j["context"];
  f.benchmarks = j["benchmarks"];
  return f;
}

std::string results_file_text(const ResultsFile& file) {
  const nlohmann::json doc = {{"context", file.context}, {"benchmarks", file.benchmarks}};
  return doc.dump(2) + "\n";
}

void write_results_file(const std::string& path, const ResultsFile& file) {
  write_file_atomically(path, results_file_text(file));
  write_file_atomically(csv_path_for(path), results_csv(file));
}

std::string csv_path_for(const std::string& json_path) {
  fs::path p(json_path);
  return p.replace_extension(".csv").string();
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
