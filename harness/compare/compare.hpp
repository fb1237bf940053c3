#pragma once
// elsbench compare: what changed between two results files, case by case, and whether it is a
// regression. Prices are deterministic, so any drift beyond a tolerance counts; times are noisy,
// so a slowdown counts only when a rank test over the repetitions says it is real and it is
// larger than the noise allowance.
#include <optional>
#include <string>
#include <vector>

#include "harness/compare/compare_cases.hpp"
#include "harness/compare/mann_whitney.hpp"

namespace elsbench {

struct CompareOptions {
  double price_tol = 1e-6;     // absolute price drift allowed
  double time_tol_pct = 10.0;  // noise allowance on the median time, percent
  double alpha = 0.05;         // significance level of the Mann-Whitney test
  bool fail_on_slow = false;
  bool fail_on_missing = true;   // a baseline case absent or skipped in NEW is a regression (--allow-missing: not)
  bool include_noisy = false;    // judge times taken on a busy or throttled machine too
  bool fail_on_change = false;   // across commits, a price change fails as a regression would
};

// What the two files have in common. Across commits a price that moved is the code's change
// between them (age): it is listed, not failed, unless fail_on_change; a case that now fails its
// reference fails whatever the commits. Across machines times are not compared.
struct CompareScope {
  bool same_commit = true;
  bool same_machine = true;
  std::string base_commit, new_commit;
  // Price-changing settings of two books that differ ("ki_damping: 2 -> 0"): their prices differ by
  // the settings, not the code, so nothing is compared (exit 2).
  std::vector<std::string> settings_differ;
};
CompareScope scope_of(const RunProvenance& base, const RunProvenance& now);

enum class TimeVerdict { Unchanged, Slower, Faster, Untested, Noisy, OtherMachine };

struct CaseComparison {
  std::string case_id;
  std::optional<CaseStatus> base_status, new_status;
  std::optional<double> base_price, new_price;
  std::optional<double> drift;             // new - base
  std::optional<double> drift_in_stderr;   // drift / reference standard error (Monte Carlo references)
  std::optional<double> base_seconds, new_seconds;  // medians
  std::optional<double> time_change_pct;
  std::size_t base_repetitions = 0, new_repetitions = 0;
  std::optional<MannWhitney> time_test;    // needs two repetitions on each side
  bool price_regression = false;
  bool aged = false;                       // the price moved across commits (CompareScope)
  std::string price_note;                  // why it is a regression, or why prices were not compared
  TimeVerdict time = TimeVerdict::Untested;
  bool lost = false;                       // passed or ran in BASE, skipped in NEW
};

// A setting in which the unmatched cases of BASE and NEW take no common value (precision fp64
// against mixed): why their cases could not match.
struct AxisDifference {
  std::string axis;
  std::vector<std::string> base_values, new_values;
};

struct Comparison {
  CompareScope scope;
  std::vector<CaseComparison> cases;  // matched by case_id
  std::vector<std::string> only_base, only_new;
  std::vector<AxisDifference> differing;  // among the unmatched cases
  // Both files have cases and none matched (a NEW with none lost them all: a regression).
  bool nothing_matched() const { return cases.empty() && !only_base.empty() && !only_new.empty(); }
  bool comparable() const { return !nothing_matched() && scope.settings_differ.empty(); }

  int price_regressions() const;
  int slowdowns() const;
  int lost_cases() const;  // skipped in NEW, or only in BASE
  int aged() const;        // prices moved across commits, not counted as regressions
};

CaseComparison compare_case(const CaseRecord& base, const CaseRecord& now, const CompareOptions& opt,
                            const CompareScope& scope = {});
Comparison compare(const CaseTable& base, const CaseTable& now, const CompareOptions& opt,
                   const CompareScope& scope = {});
// 1 on a price regression, on a slowdown with fail_on_slow, on a lost case with fail_on_missing;
// 2 when no case matched or two books' settings differ: not comparable, not a regression.
int regression_exit_code(const Comparison& c, const CompareOptions& opt);

std::string to_string(TimeVerdict v);

}  // namespace elsbench
