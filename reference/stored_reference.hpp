#pragma once
// Stored Monte Carlo references, reference/values/<product-id>.json: a value no solver under test
// produced, with what it takes to trust and to regenerate it. Written only by
// `elsbench reference --write`, never by hand.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "platform/file_io.hpp"  // utc_timestamp, for the date of a stored value
#include "products/product.hpp"

namespace elsbench {

struct StoredReference {
  std::string product_id;
  nlohmann::json product;  // the terms priced (product_to_json): a stale file is recognised
  double price = 0;
  double std_error = 0;
  long long paths = 0;
  unsigned long long seed = 0;
  std::string generator;
  int generator_version = 0;
  std::string device;
  int threads = 0;
  double seconds = 0;
  std::string git_commit;
  std::string date;         // UTC, ISO 8601
  nlohmann::json machine;   // the machine descriptor of the run
  std::string command;      // regenerates this file
};

// <project root>/reference/values/<id>.json
std::string stored_reference_path(const std::string& product_id);

nlohmann::json to_json(const StoredReference& r);
// Throws InputError naming `source` and the missing or malformed field.
StoredReference stored_reference_from_json(const nlohmann::json& j, const std::string& source);

// A stored file larger than this is refused unread (one is about 2 KiB).
inline constexpr std::uintmax_t kMaxStoredReferenceBytes = 1ULL << 20;
// The stored file for this id, or nothing when there is none.
std::optional<StoredReference> load_stored_reference(const std::string& product_id);
// Whether the stored value was computed for exactly these product terms.
bool prices_product(const StoredReference& r, const Product& p);

// Temp file + rename: a reader sees the old file or the new one, never half of one.
void write_stored_reference(const StoredReference& r, const std::string& path);

}  // namespace elsbench
