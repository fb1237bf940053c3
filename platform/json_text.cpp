#include "platform/json_text.hpp"

#include <cstdio>

#include "platform/input_error.hpp"

namespace elsbench {
namespace {

// Bytes outside printable ASCII as \xNN: the reason stays one valid line whatever it quotes.
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    }
  }
  return out;
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& source, const std::string& field) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
    throw InputError(source, field, "not valid JSON: " + printable(e.what()));
  }
}

}  // namespace elsbench
