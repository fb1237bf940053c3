#pragma once
// A validation run: every case of a validation plan priced untimed by the one case loop (progress,
// attempts, signals) and judged against its reference, into a results file of the one schema
// when one is named. With `resume` the cases already in that file, written under the same preset
// and settings, are kept and the rest are priced.
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/results/reporter.hpp"
#include "harness/sweep/validation_plan.hpp"

namespace elsbench {

struct ValidationRun {
  std::string path;  // the results file (the other formats' files beside it); empty: none
  std::vector<std::string> formats = default_out_formats();
  std::string command;               // recorded verbatim
  std::ostream* progress = nullptr;  // progress lines; nullptr: silent
  bool handle_signals = false;       // SIGINT/SIGTERM: stop at once, leaving the file whole
  bool resume = false;               // keep the cases already in `path`
  std::string target_error;          // as given, recorded for a resume to compare
  std::function<void(std::size_t cases_done)> after_case;  // called after each case is recorded
};

struct ValidationSummary {
  std::size_t cases = 0, ran = 0, kept = 0, passed = 0;  // passed: over every case, kept or not
  std::string table;  // validation_table of every case
  bool all_passed() const { return passed == cases; }
};

ValidationSummary run_validation(const ValidationPlan& plan, const ValidationRun& run);

// A table of a validation's cases as its results entries record them: product, solver, grid,
// price, reference, error, allowance, status and why.
std::string validation_table(const nlohmann::json& benchmarks);

}  // namespace elsbench
