#pragma once
// The cases of a results file (harness/results/RESULTS_SCHEMA.md) as compare needs them: one record per
// case_id with its verdict, price and per-repetition times.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/placement/case_status.hpp"

namespace elsbench {

struct CaseRecord {
  std::string case_id;
  std::optional<CaseStatus> status;  // from the case's first entry
  std::string skip_reason;
  std::optional<double> price;
  std::optional<double> reference_stderr;
  std::optional<double> median_seconds;  // the median aggregate, else the median of the repetitions
  std::vector<double> repetition_seconds;
  bool noisy = false;  // timed while the machine was busy or throttled (platform/machine_load.hpp)
  // The case's axis values as text (comparable_axes()), for comparing the cases of one file by
  // one axis.
  std::map<std::string, std::string> axes;
};

using CaseTable = std::map<std::string, CaseRecord>;

// The axes `--by` can split a file by, and that make a case's twin: product, solver, scheme, n,
// nt, device, threads, precision, book, and the grid settings a case may carry (the grid codec's).
std::vector<std::string> comparable_axes();

// The cases of one file whose `axis` reads `base_value` and those whose `axis` reads `new_value`,
// each keyed by the case's other axes, so that compare() matches e.g. fp64 and mixed of one case.
// Throws InputError naming `origin` and `--by` for an axis not in comparable_axes().
std::pair<CaseTable, CaseTable> split_by(const CaseTable& cases, const std::string& axis, const std::string& base_value,
                                         const std::string& new_value, const std::string& origin);
// The values `axis` takes in `cases`, in the order of first appearance by case id.
std::vector<std::string> axis_values(const CaseTable& cases, const std::string& axis);

// Where a results file's times and prices came from: the build's commit and the machine.
struct RunProvenance {
  std::string commit;   // "" when the file does not say
  std::string machine;  // host, CPU model, cores and GPUs: two machines called "vm" are not one
  std::string started;
  // A book's price-changing settings (context.elsbench.book.settings, less the book's path), as
  // "key=value": a sweep's are in its case ids.
  std::map<std::string, std::string> settings;
};

// `origin` names the file in error messages. Throws InputError on a file that is not a results file.
CaseTable cases_from_json(const nlohmann::json& results, const std::string& origin);
// With `provenance`, also the file's commit and machine, from the same read.
CaseTable load_cases(const std::string& path, RunProvenance* provenance = nullptr);

}  // namespace elsbench
