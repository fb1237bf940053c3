#pragma once
// A product's canonical terms: what its price depends on, and nothing else. The id and the
// underlyings' names are labels, not terms; the JSON is the loader's normalised form (defaults
// filled, numbers as parsed), dumped with sorted keys, so whitespace, key order and file names
// do not change it. Its SHA-256 keys the reference store: an edited file gets a new key, and two
// files with the same id and different terms never share a value.
#include <nlohmann/json.hpp>
#include <string>

#include "products/product.hpp"

namespace elsbench {

nlohmann::json canonical_terms(const Product& p);
std::string content_hash(const nlohmann::json& terms);  // 64 hex digits
std::string content_hash(const Product& p);

}  // namespace elsbench
