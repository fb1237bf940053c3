#pragma once
// A whole number written as text, all of it ("12", "-3"; not "", "1e3", "12 " or "4x"): the one
// reader of counts given on a command line (nodes, steps, axis values).
#include <optional>
#include <stdexcept>
#include <string>

namespace elsbench {

inline std::optional<long long> whole_number(const std::string& text) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (text.empty() || used != text.size()) return std::nullopt;
  return v;
}

}  // namespace elsbench
