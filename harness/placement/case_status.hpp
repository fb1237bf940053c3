#pragma once
// A case's status in a results file (a sweep's case, a book's note, a validation case): its
// words are written here once, and read back by the same table, so no other word is ever written
// and an unknown one is refused where a file is read.
#include <iosfwd>
#include <optional>
#include <string_view>

namespace elsbench {

enum class CaseStatus {
  Pass,         // judged against its reference: within the allowance
  Fail,         // judged: beyond it
  NoReference,  // priced, nothing to judge it by
  Unconverged,  // priced beyond its own error bar, or refused by its no-arbitrage bounds
  Skipped,      // not priced (refused, unavailable, failed)
};

const char* to_string(CaseStatus status);
std::ostream& operator<<(std::ostream& out, CaseStatus status);
// The status a word names; nullopt for any other word.
std::optional<CaseStatus> parse_case_status(std::string_view word);

}  // namespace elsbench
