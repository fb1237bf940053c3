#include "harness/compare/compare_json.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

const char* time_word(TimeVerdict v) {
  switch (v) {
    case TimeVerdict::Unchanged: return "unchanged";
    case TimeVerdict::Slower: return "slower";
    case TimeVerdict::Faster: return "faster";
    case TimeVerdict::Untested: return "untested";
    case TimeVerdict::Noisy: return "noisy";
    case TimeVerdict::OtherMachine: return "other-machine";
  }
  return "untested";
}

template <class T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json case_json(const CaseComparison& c) {
  return {{"case_id", c.case_id},
          {"price_moved", c.price_regression || c.aged},
          {"price_regression", c.price_regression},
          {"aged", c.aged},
          {"drift", or_null(c.drift)},
          {"time", time_word(c.time)},
          {"time_change_pct", or_null(c.time_change_pct)},
          {"p_value", c.time_test ? json(c.time_test->p_value) : json(nullptr)}};
}

}  // namespace

json to_json(const Comparison& c, const CompareOptions& opt) {
  json cases = json::array();
  for (const CaseComparison& k : c.cases) cases.push_back(case_json(k));
  return {{"options", {{"price_tol", opt.price_tol}, {"time_tol_pct", opt.time_tol_pct}, {"alpha", opt.alpha}}},
          {"scope", {{"same_commit", c.scope.same_commit}, {"same_machine", c.scope.same_machine}}},
          {"cases", cases},
          {"only_base", c.only_base},
          {"only_new", c.only_new}};
}

}  // namespace elsbench
