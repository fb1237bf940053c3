#pragma once
// The last lines of a dry-run's plan (`book price --dry-run`, `sweep --dry-run`), which scripts
// read (ci/cloud-sweep.sh --dry-run): "expected_seconds: E" and "estimate_seconds: LOW HIGH"; a
// lower bound alone "estimate_seconds: LOW"; no rate measured "estimate_seconds: unmeasured".
#include <optional>
#include <string>

namespace elsbench {

std::string estimate_lines(const std::optional<double>& low, const std::optional<double>& expected,
                           const std::optional<double>& high);

}  // namespace elsbench
