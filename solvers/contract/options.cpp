#include "solvers/contract/options.hpp"

#include <stdexcept>

namespace elsbench {

Precision parse_precision(const std::string& s) {
  if (s == "fp64" || s == "double") return Precision::FP64;
  if (s == "fp32" || s == "float") return Precision::FP32;
  throw std::invalid_argument("unknown precision '" + s + "' (expected fp64 or fp32)");
}

const char* to_string(Precision p) { return p == Precision::FP64 ? "fp64" : "fp32"; }

std::string Device::str() const {
  if (kind == Kind::Cpu) return "cpu";
  return "cuda:" + std::to_string(index);
}

Device parse_device(const std::string& s) {
  Device d;
  if (s == "auto") {
    d.is_auto = true;
    return d;
  }
  if (s == "cpu") return d;
  if (s == "cuda" || s.rfind("cuda:", 0) == 0) {
    d.kind = Device::Kind::Cuda;
    if (s.size() > 5) {
      std::size_t used = 0;
      int index = -1;
      try {
        index = std::stoi(s.substr(5), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != s.size() - 5 || index < 0)
        throw std::invalid_argument("bad device '" + s + "' (expected cuda:N with N >= 0)");
      d.index = index;
    }
    return d;
  }
  throw std::invalid_argument("unknown device '" + s + "' (expected auto, cpu or cuda:N)");
}

}  // namespace elsbench
