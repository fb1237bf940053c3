#pragma once
// The known word a misspelt one most likely meant ("did you mean ..."): the same letters in another
// case or with other separators ('DivYield', 'div-yield' for 'div_yield'), else the nearest within
// two edits; empty when none is that close. For keys, catalog ids and names a user types.
#include <string>
#include <string_view>
#include <vector>

namespace elsbench {

std::string nearest_word(std::string_view word, const std::vector<std::string_view>& known);

}  // namespace elsbench
