#pragma once
#include <nlohmann/json.hpp>

#include "solvers/contract/price_result.hpp"

namespace elsbench {

nlohmann::json to_json(const PriceResult& r);
nlohmann::json to_json(const ErrorEstimate& e);  // the error_estimate field of price --json and results files
// Human-readable block: one field per line.
std::string to_text(const PriceResult& r);

}  // namespace elsbench
