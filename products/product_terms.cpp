#include "products/product_terms.hpp"

#include "platform/sha256.hpp"
#include "products/product_json.hpp"

namespace elsbench {

nlohmann::json canonical_terms(const Product& p) {
  nlohmann::json terms = product_to_json(p);
  terms.erase("id");
  for (auto& u : terms["underlyings"]) u.erase("name");
  return terms;
}

std::string content_hash(const nlohmann::json& terms) { return sha256_hex(terms.dump()); }

std::string content_hash(const Product& p) { return content_hash(canonical_terms(p)); }

}  // namespace elsbench
