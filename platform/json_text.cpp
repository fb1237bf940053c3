#include "platform/json_text.hpp"

#include <cstdio>
#include <set>
#include <vector>

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

// The keys of each open object, innermost last: a key given twice in one object is refused, since
// the parser would keep the last silently ("vol": 0.2, "vol": 0.9 priced at 0.9).
class DuplicateKeys {
 public:
  bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) open_.emplace_back();
    if (event == Event::object_end) open_.pop_back();
    if (event == Event::key && !open_.back().insert(parsed.get<std::string>()).second) {
      duplicate_ = parsed.get<std::string>();
      throw Found{};
    }
    return true;
  }
  struct Found {};
  const std::string& duplicate() const { return duplicate_; }

 private:
  std::vector<std::set<std::string>> open_;
  std::string duplicate_;
};

}  // namespace

std::string as_written(std::string_view text) {
  const std::string quoted = nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(quoted).get<std::string>();
}

nlohmann::json parse_json(std::string_view text, const std::string& source, const std::string& field) {
  // The parser stops at a NUL byte and would take what follows it for the end of the text.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError(source, field, "not valid JSON: a NUL byte at offset " + std::to_string(nul));
  }
  DuplicateKeys keys;
  try {
    return nlohmann::json::parse(text, std::ref(keys));
  } catch (const DuplicateKeys::Found&) {
    throw InputError(source, printable(keys.duplicate()), "the key appears twice in one object: give it once");
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
    throw InputError(source, field, "not valid JSON: " + printable(e.what()));
  }
}

}  // namespace elsbench
