#include "solvers/contract/options.hpp"

#include <stdexcept>

namespace elsbench {

Precision parse_precision(const std::string& s) {
  if (s == "fp64" || s == "double") return Precision::FP64;
  if (s == "fp32" || s == "float") return Precision::FP32;
  throw std::invalid_argument("unknown precision '" + s + "' (expected fp64 or fp32)");
}

const char* to_string(Precision p) { return p == Precision::FP64 ? "fp64" : "fp32"; }

}  // namespace elsbench
