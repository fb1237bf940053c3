#pragma once
// The cases of a results file (harness/results/RESULTS_SCHEMA.md) as compare needs them: one record per
// case_id with its verdict, price and per-repetition times.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace elsbench {

struct CaseRecord {
  std::string case_id;
  std::string status;       // pass | fail | no-reference | skipped
  std::string skip_reason;
  std::optional<double> price;
  std::optional<double> reference_stderr;
  std::optional<double> median_seconds;  // the median aggregate, else the median of the repetitions
  std::vector<double> repetition_seconds;
};

using CaseTable = std::map<std::string, CaseRecord>;

// `origin` names the file in error messages. Throws InputError on a file that is not a results file.
CaseTable cases_from_json(const nlohmann::json& results, const std::string& origin);
CaseTable load_cases(const std::string& path);

}  // namespace elsbench
