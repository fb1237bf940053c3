#pragma once
// The verdicts of elsbench compare as JSON (`compare --json`): what the report's history reads,
// so that a run-to-run change is judged by compare's rule alone.
#include <nlohmann/json.hpp>

#include "harness/compare/compare.hpp"

namespace elsbench {

// {"options": {price_tol, time_tol_pct, alpha}, "scope": {same_commit, same_machine}, "cases":
// [{case_id, price_moved, price_regression, aged, drift, time, time_change_pct, p_value}],
// "only_base", "only_new"}; time one of unchanged, slower, faster, untested, noisy, other-machine.
nlohmann::json to_json(const Comparison& c, const CompareOptions& opt);

}  // namespace elsbench
