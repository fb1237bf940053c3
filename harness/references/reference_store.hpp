#pragma once
// The reference store: Monte Carlo references computed on demand for products that have no closed
// form and no value in reference/values/, one file per product content, <store>/<sha256>.json,
// the key being the hash of the product's canonical terms (products/product_terms.hpp). An entry
// carries the terms it priced, the value with its full provenance (StoredReference) and a
// checksum over all of it; an entry that fails any check (truncated, foreign JSON, edited, another
// product's terms under this key, a link) is refused with the reason, never trusted.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "products/product.hpp"
#include "reference/stored_reference.hpp"

namespace elsbench {

struct StoreEntry {
  std::string key;              // content hash
  nlohmann::json terms;         // canonical terms priced
  StoredReference value;        // price, stderr, paths, seed, generator, device, machine, commit, date, command
  double target_std_error = 0;  // what was asked
  double budget_seconds = 0;
};

struct StoreLoad {
  std::optional<StoreEntry> entry;
  std::string refused;  // why an entry that exists was not trusted; empty when none was refused
};

// $ELSBENCH_REFERENCE_STORE, else $XDG_CACHE_HOME/elsbench/references, else
// $HOME/.cache/elsbench/references. Throws std::runtime_error when none of them is set.
std::string default_reference_store();

// Limits (docs/reliability.md): an entry file larger than this is refused unread; listing a store
// of more entries is refused, naming the folder.
inline constexpr std::uintmax_t kMaxStoreEntryBytes = 1 << 20;
inline constexpr std::size_t kMaxStoreEntries = 100000;

class ReferenceStore {
 public:
  explicit ReferenceStore(std::string dir);
  const std::string& dir() const { return dir_; }

  // Always <dir>/<64 hex digits>.json: a key that is not a hash is refused, so no path leaves the store.
  std::string entry_path(const std::string& key) const;
  // The entry for these terms, checked; nothing (and no reason) when there is none.
  StoreLoad load(const Product& product) const;
  // Atomically (temp file + rename): a reader never sees half an entry.
  void save(const StoreEntry& entry) const;

  struct Listed {
    std::string path;
    std::optional<StoreEntry> entry;
    std::string refused;
  };
  // Every entry file of the store, checked, in file name order. list and clear throw InputError
  // when the store's path is something other than a folder; a store not yet made is empty.
  std::vector<Listed> list() const;
  // Removes the store's files: its entries (stale or damaged ones too) and the temp files of
  // interrupted writes; a sound JSON document of another format that has an entry's name stays
  // (someone else's), its path added to `kept`. Returns how many were removed.
  std::size_t clear(std::vector<std::string>* kept = nullptr) const;

 private:
  bool exists() const;
  std::string dir_;
};

nlohmann::json to_json(const StoreEntry& e);  // with its checksum
// Throws std::invalid_argument with the reason when the document is not a sound entry for `key`.
StoreEntry store_entry_from_json(const nlohmann::json& j, const std::string& key, const std::string& source);

}  // namespace elsbench
