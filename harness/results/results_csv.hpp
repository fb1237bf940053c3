#pragma once
// The flat view of a results file: one CSV row per case (its aggregate entries folded into
// median/mean/stddev/min columns), for spreadsheets and quick greps.
#include <string>

#include "harness/results/results_file.hpp"

namespace elsbench {

std::string results_csv(const ResultsFile& file);
// One CSV field: numbers to 17 digits, null empty, text quoted where it holds , " or a newline.
std::string csv_cell(const nlohmann::json& v);

}  // namespace elsbench
