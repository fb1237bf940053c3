#pragma once
#include <nlohmann/json.hpp>

#include "solvers/contract/price_result.hpp"

namespace elsbench {

nlohmann::json to_json(const PriceResult& r);
// Human-readable block: one field per line.
std::string to_text(const PriceResult& r);

}  // namespace elsbench
