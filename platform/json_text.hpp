#pragma once
// The one parse of an input's JSON text. A document that is not JSON is bad input naming the file
// and field, with the parser's reason in printable ASCII: the parser quotes the bytes it read last,
// which may be half a UTF-8 character, and a terminal or a results file would carry it mangled.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace elsbench {

// `text` as a JSON file holds it: each byte that is not part of valid UTF-8 becomes U+FFFD, as the
// results writer writes it (a path with a 0xFF byte), so a value read back compares equal.
std::string as_written(std::string_view text);

// Throws InputError(source, field, "not valid JSON: <reason>"), also for a number beyond a double.
nlohmann::json parse_json(std::string_view text, const std::string& source, const std::string& field);

}  // namespace elsbench
