#include "solvers/contract/options.hpp"

#include <stdexcept>

namespace elsbench {

Precision parse_precision(const std::string& s) {
  if (s == "fp64" || s == "double") return Precision::FP64;
  if (s == "fp32" || s == "float") return Precision::FP32;
  if (s == "mixed") return Precision::Mixed;
  throw std::invalid_argument("unknown precision '" + s + "' (expected fp64, fp32 or mixed)");
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::FP32: return "fp32";
    case Precision::Mixed: return "mixed";
    default: return "fp64";
  }
}

}  // namespace elsbench
