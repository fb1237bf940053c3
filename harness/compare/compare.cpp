#include "harness/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>

namespace elsbench {
namespace {

void compare_prices(CaseComparison& c, const CaseRecord& base, const CaseRecord& now, const CompareOptions& opt,
                    const CompareScope& scope) {
  if (base.status == CaseStatus::Pass && (now.status == CaseStatus::Fail || now.status == CaseStatus::Unconverged)) {
    c.price_regression = true;
    c.price_note = now.status == CaseStatus::Fail ? "passed, now fails" : "passed, now unconverged";
  }
  if (!base.price || !now.price) return;
  c.drift = *now.price - *base.price;
  if (base.reference_stderr && *base.reference_stderr > 0) c.drift_in_stderr = *c.drift / *base.reference_stderr;
  if (std::abs(*c.drift) <= opt.price_tol || c.price_regression) return;
  if (!scope.settings_differ.empty()) {
    c.price_note = "priced under other settings (" + scope.settings_differ.front() + ")";
    return;
  }
  if (!scope.same_commit && !opt.fail_on_change) {
    c.aged = true;
    c.price_note = "changed since " + scope.base_commit.substr(0, 7) + " (age: the code differs)";
    return;
  }
  c.price_regression = true;
  c.price_note = "price drift beyond tolerance";
}

TimeVerdict judge_time(const CaseComparison& c, const CompareOptions& opt, const CompareScope& scope, bool noisy) {
  if (!scope.same_machine) return TimeVerdict::OtherMachine;
  if (noisy && !opt.include_noisy) return TimeVerdict::Noisy;
  if (!c.time_test || !c.time_change_pct) return TimeVerdict::Untested;
  const bool significant = c.time_test->p_value < opt.alpha;
  if (significant && *c.time_change_pct > opt.time_tol_pct) return TimeVerdict::Slower;
  if (significant && *c.time_change_pct < -opt.time_tol_pct) return TimeVerdict::Faster;
  return TimeVerdict::Unchanged;
}

void compare_times(CaseComparison& c, const CaseRecord& base, const CaseRecord& now, const CompareOptions& opt,
                   const CompareScope& scope) {
  c.base_seconds = base.median_seconds;
  c.new_seconds = now.median_seconds;
  if (c.base_seconds && c.new_seconds && *c.base_seconds > 0)
    c.time_change_pct = 100.0 * (*c.new_seconds / *c.base_seconds - 1.0);
  c.base_repetitions = base.repetition_seconds.size();
  c.new_repetitions = now.repetition_seconds.size();
  if (base.repetition_seconds.size() >= 2 && now.repetition_seconds.size() >= 2)
    c.time_test = mann_whitney_u(base.repetition_seconds, now.repetition_seconds);
  c.time = judge_time(c, opt, scope, base.noisy || now.noisy);
}

}  // namespace

CompareScope scope_of(const RunProvenance& base, const RunProvenance& now) {
  CompareScope s;
  s.base_commit = base.commit;
  s.new_commit = now.commit;
  s.same_commit = base.commit.empty() || now.commit.empty() || base.commit == now.commit;
  s.same_machine = base.machine == now.machine;
  for (const auto& [key, value] : base.settings) {
    const auto it = now.settings.find(key);
    if (it != now.settings.end() && it->second != value) s.settings_differ.push_back(key + ": " + value + " -> " + it->second);
  }
  return s;
}

CaseComparison compare_case(const CaseRecord& base, const CaseRecord& now, const CompareOptions& opt,
                            const CompareScope& scope) {
  CaseComparison c;
  c.case_id = base.case_id;
  c.base_status = base.status;
  c.new_status = now.status;
  c.base_price = base.price;
  c.new_price = now.price;
  c.lost = base.status != CaseStatus::Skipped && now.status == CaseStatus::Skipped;
  compare_prices(c, base, now, opt, scope);
  compare_times(c, base, now, opt, scope);
  return c;
}

namespace {

// The values `axis` takes among the cases `ids` of `table`, sorted.
std::vector<std::string> values_of(const CaseTable& table, const std::vector<std::string>& ids, const std::string& axis) {
  std::set<std::string> values;
  for (const std::string& id : ids)
    if (const auto it = table.at(id).axes.find(axis); it != table.at(id).axes.end()) values.insert(it->second);
  return {values.begin(), values.end()};
}

std::vector<AxisDifference> differing_axes(const CaseTable& base, const CaseTable& now, const Comparison& c) {
  std::vector<AxisDifference> out;
  if (c.only_base.empty() || c.only_new.empty()) return out;
  for (const std::string& axis : comparable_axes()) {
    AxisDifference d{axis, values_of(base, c.only_base, axis), values_of(now, c.only_new, axis)};
    std::vector<std::string> common;
    std::set_intersection(d.base_values.begin(), d.base_values.end(), d.new_values.begin(), d.new_values.end(),
                          std::back_inserter(common));
    if (!d.base_values.empty() && !d.new_values.empty() && common.empty()) out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

Comparison compare(const CaseTable& base, const CaseTable& now, const CompareOptions& opt,
                   const CompareScope& scope) {
  Comparison result;
  result.scope = scope;
  for (const auto& [id, b] : base) {
    const auto n = now.find(id);
    if (n == now.end())
      result.only_base.push_back(id);
    else
      result.cases.push_back(compare_case(b, n->second, opt, scope));
  }
  for (const auto& [id, n] : now)
    if (!base.count(id)) result.only_new.push_back(id);
  result.differing = differing_axes(base, now, result);
  return result;
}

int Comparison::price_regressions() const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.price_regression; }));
}

int Comparison::slowdowns() const {
  return static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.time == TimeVerdict::Slower; }));
}

int Comparison::lost_cases() const {
  return static_cast<int>(only_base.size()) +
         static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.lost; }));
}

int Comparison::aged() const {
  return static_cast<int>(std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.aged; }));
}

int regression_exit_code(const Comparison& c, const CompareOptions& opt) {
  if (!c.comparable()) return 2;
  if (c.price_regressions() > 0) return 1;
  if (opt.fail_on_slow && c.slowdowns() > 0) return 1;
  if (opt.fail_on_missing && c.lost_cases() > 0) return 1;
  return 0;
}

std::string to_string(TimeVerdict v) {
  switch (v) {
    case TimeVerdict::Unchanged: return "within noise";
    case TimeVerdict::Slower: return "SLOWER";
    case TimeVerdict::Faster: return "faster";
    case TimeVerdict::Untested: return "untested";
    case TimeVerdict::Noisy: return "noisy (not judged)";
    case TimeVerdict::OtherMachine: return "other machine (not compared)";
  }
  return "";
}

}  // namespace elsbench
