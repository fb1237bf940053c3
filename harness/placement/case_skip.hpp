#pragma once
// Why a case could not run, as recorded in a results file's skip_reason: "<kind>: <message>"
// with kind one of unstable, unavailable, out-of-memory, unsupported, error.
#include <exception>
#include <string>

namespace elsbench {

std::string skip_reason(std::exception_ptr failure);

}  // namespace elsbench
