#pragma once
// The text elsbench compare prints: one line per matched case, the cases only in one file, and a
// summary that says which rule made the exit code.
#include <string>

#include "harness/compare/compare.hpp"

namespace elsbench {

std::string to_text(const Comparison& c, const CompareOptions& opt);

}  // namespace elsbench
