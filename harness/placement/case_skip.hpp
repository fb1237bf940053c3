#pragma once
// Why a case could not run, as recorded in a results file's skip_reason: "<kind>: <message>"
// with kind one of unstable, unavailable, out-of-memory, unsupported, error.
#include <exception>
#include <string>

#include "harness/placement/case_status.hpp"

namespace elsbench {

std::string skip_reason(std::exception_ptr failure);
// The status of a pricing that failed: Unconverged for a price its no-arbitrage bounds refuse
// (the case ran; its grid cannot carry the note), else Skipped.
CaseStatus failure_status(std::exception_ptr failure);

}  // namespace elsbench
