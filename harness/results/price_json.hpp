#pragma once
#include <nlohmann/json.hpp>

#include "harness/run/price_run.hpp"
#include "solvers/contract/price_result.hpp"

namespace elsbench {

nlohmann::json to_json(const PriceResult& r);
nlohmann::json to_json(const Accuracy& a);  // the accuracy field: Richardson's value, its bar and cost
nlohmann::json to_json(const ErrorEstimate& e);  // the error_estimate field of price --json and results files
// What `price --json` prints: the result, and where a reference was asked for, the reference and
// the verdict (null where there is none).
nlohmann::json price_json(const CaseOutcome& run, bool reference_wanted);
// Human-readable block: one field per line.
std::string to_text(const PriceResult& r);

}  // namespace elsbench
