#include "platform/nearest_word.hpp"

#include <algorithm>
#include <cctype>

namespace elsbench {
namespace {

// Levenshtein distance between two short words.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t k = 0; k <= b.size(); ++k) row[k] = k;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t k = 1; k <= b.size(); ++k) {
      const std::size_t above = row[k];
      row[k] = std::min({row[k] + 1, row[k - 1] + 1, diagonal + (a[i - 1] == b[k - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A word folded to lower case without separators.
std::string folded(std::string_view word) {
  std::string out;
  for (const char c : word)
    if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string nearest_word(std::string_view word, const std::vector<std::string_view>& known) {
  const std::string word_folded = folded(word);
  std::string_view best;
  std::size_t best_distance = 3;
  for (const std::string_view k : known) {
    const std::size_t d = word_folded == folded(k) ? 0 : edit_distance(word, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  return std::string(best);
}

}  // namespace elsbench
