#pragma once
// Loading products from JSON: every rule of docs/products.md is checked before any work starts.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

// Parses and validates; throws InputError naming `source` and the offending field.
Product product_from_json(const nlohmann::json& j, const std::string& source);
// The text of a product file named `source`; bad JSON is an InputError too.
Product product_from_text(std::string_view text, const std::string& source);
// A product file larger than this is refused unread (a note of 64 autocall dates is a few KiB).
inline constexpr std::uintmax_t kMaxProductFileBytes = 1ULL << 20;
Product load_product_file(const std::string& path);
nlohmann::json product_to_json(const Product& p);
// The terms of a step-down ELS that are one object of named keys ("knock_in", "coupons", "lizard"),
// as the loader reads them: a CSV book spells each key as a column <object>_<key> (book_csv.cpp).
struct TermObject {
  std::string_view name;
  std::vector<std::string_view> keys;
};
const std::vector<TermObject>& els_term_objects();

// Ids name files (reference/values/<id>.json): 1 to 64 of [A-Za-z0-9._-], the first alphanumeric,
// so that no id leaves its folder.
bool is_safe_product_id(const std::string& id);

}  // namespace elsbench
