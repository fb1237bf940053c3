#include "harness/placement/case_status.hpp"

#include <array>
#include <ostream>
#include <utility>

namespace elsbench {
namespace {

constexpr std::array<std::pair<CaseStatus, const char*>, 5> kWords{{{CaseStatus::Pass, "pass"},
                                                                    {CaseStatus::Fail, "fail"},
                                                                    {CaseStatus::NoReference, "no-reference"},
                                                                    {CaseStatus::Unconverged, "unconverged"},
                                                                    {CaseStatus::Skipped, "skipped"}}};

}  // namespace

const char* to_string(CaseStatus status) {
  for (const auto& [s, word] : kWords)
    if (s == status) return word;
  return "skipped";
}

std::ostream& operator<<(std::ostream& out, CaseStatus status) { return out << to_string(status); }

std::optional<CaseStatus> parse_case_status(std::string_view word) {
  for (const auto& [s, w] : kWords)
    if (word == w) return s;
  return std::nullopt;
}

}  // namespace elsbench
