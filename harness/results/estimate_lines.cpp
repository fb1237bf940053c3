#include "harness/results/estimate_lines.hpp"

#include <sstream>

namespace elsbench {

std::string estimate_lines(const std::optional<double>& low, const std::optional<double>& expected,
                           const std::optional<double>& high) {
  std::ostringstream s;
  if (!low) return "estimate_seconds: unmeasured\n";
  if (!expected || !high) {
    s << "estimate_seconds: " << *low << '\n';
  } else {
    s << "expected_seconds: " << *expected << '\n';
    s << "estimate_seconds: " << *low << ' ' << *high << '\n';
  }
  return s.str();
}

}  // namespace elsbench
