#include "harness/references/reference_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "platform/file_io.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "platform/sha256.hpp"
#include "products/product_terms.hpp"

namespace elsbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "elsbench-reference-store-entry";
const InputLimits kEntryLimits{kMaxStoreEntryBytes, "an entry may hold"};
constexpr int kFormatVersion = 1;

bool is_key(const std::string& s) { return std::regex_match(s, std::regex("[0-9a-f]{64}")); }

// A file name the store owns: an entry, or the temp file of an interrupted atomic write.
bool is_store_file(const std::string& name) {
  return std::regex_match(name, std::regex("[0-9a-f]{64}\\.json(\\.tmp)?"));
}

std::string checksum(json j) {
  j.erase("checksum");
  return sha256_hex(j.dump());
}

// Whether the file at `path` is a sound JSON document of another format than the store's: a
// file of someone else's that merely has an entry's name (list refuses it as "not a reference
// store entry"). A damaged entry, a link or an oversized file is the store's to remove.
bool foreign_document(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return false;
  std::string text;
  try {
    text = read_input(path.string(), kEntryLimits);
  } catch (const std::exception&) {
    return false;
  }
  const json j = json::parse(text, nullptr, false);
  return !j.is_discarded() && !(j.is_object() && j.value("format", json()) == kFormat);
}

// The entry file at `path` for `key`, every check applied; the reason when it fails one.
StoreLoad load_file(const fs::path& path, const std::string& key) {
  StoreLoad out;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::exists(st)) return out;
  if (!fs::is_regular_file(st)) {
    out.refused = "not a regular file (a link or a folder is never followed)";
    return out;
  }
  json j;
  try {  // too large, not UTF-8, replaced by a fifo since the check above, truncated or damaged
    j = parse_json(read_input(path.string(), kEntryLimits), path.string(), "<file>");
  } catch (const InputError& e) {
    out.refused = e.reason();
    return out;
  }
  try {
    out.entry = store_entry_from_json(j, key, path.string());
  } catch (const std::exception& e) {
    out.refused = e.what();
  }
  return out;
}

}  // namespace

std::string default_reference_store() {
  if (const char* env = std::getenv("ELSBENCH_REFERENCE_STORE"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/elsbench/references";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/elsbench/references";
  throw std::runtime_error(
      "no reference store: set ELSBENCH_REFERENCE_STORE or give --reference-store (neither XDG_CACHE_HOME nor HOME is set)");
}

json to_json(const StoreEntry& e) {
  json j = {{"format", kFormat},
            {"format_version", kFormatVersion},
            {"key", e.key},
            {"terms", e.terms},
            {"target_std_error", e.target_std_error},
            {"budget_seconds", e.budget_seconds},
            {"reference", to_json(e.value)}};
  j["checksum"] = checksum(j);
  return j;
}

StoreEntry store_entry_from_json(const json& j, const std::string& key, const std::string& source) {
  const auto refuse = [](const std::string& why) { throw std::invalid_argument(why); };
  if (!j.is_object() || j.value("format", json()) != kFormat) refuse("not a reference store entry (no \"format\": \"" + std::string(kFormat) + "\")");
  if (j.value("format_version", 0) != kFormatVersion)
    refuse("entry format version " + j.value("format_version", json()).dump() + ", expected " + std::to_string(kFormatVersion));
  if (!j.contains("checksum") || !j["checksum"].is_string() || j["checksum"].get<std::string>() != checksum(j))
    refuse("checksum does not match its contents (edited or damaged)");
  if (!j.contains("terms") || !j["terms"].is_object()) refuse("no product terms");
  StoreEntry e;
  e.terms = j["terms"];
  e.key = content_hash(e.terms);
  if (j.value("key", json()) != e.key) refuse("its key is not the hash of the terms it holds");
  if (e.key != key) refuse("it holds the terms of another product (key " + e.key.substr(0, 12) + ")");
  if (!j.contains("reference")) refuse("no reference value");
  try {
    e.value = stored_reference_from_json(j["reference"], source + " (reference)");
  } catch (const InputError& err) {
    refuse(err.what());
  }
  if (!std::isfinite(e.value.price) || !std::isfinite(e.value.std_error) || !(e.value.std_error > 0))
    refuse("price or standard error not a finite number (standard error > 0)");
  e.target_std_error = j.value("target_std_error", 0.0);
  e.budget_seconds = j.value("budget_seconds", 0.0);
  return e;
}

ReferenceStore::ReferenceStore(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw std::invalid_argument("the reference store's folder must not be empty");
}

std::string ReferenceStore::entry_path(const std::string& key) const {
  if (!is_key(key)) throw std::invalid_argument("not a reference store key: '" + key + "'");
  return (fs::path(dir_) / (key + ".json")).string();
}

StoreLoad ReferenceStore::load(const Product& product) const {
  const std::string key = content_hash(product);
  StoreLoad out = load_file(entry_path(key), key);
  if (out.entry && out.entry->terms != canonical_terms(product)) {
    out.refused = "it holds other terms under this product's key";
    out.entry.reset();
  }
  return out;
}

void ReferenceStore::save(const StoreEntry& entry) const {
  if (entry.key != content_hash(entry.terms)) throw std::logic_error("store entry key is not the hash of its terms");
  write_file_atomically(entry_path(entry.key), to_json(entry).dump(2) + "\n");
}

// A store that names something other than a folder is bad input (it listed as empty).
bool ReferenceStore::exists() const {
  std::error_code ec;
  const fs::file_status st = fs::status(dir_, ec);
  if (!fs::exists(st)) return false;
  if (!fs::is_directory(st)) throw InputError(dir_, "--reference-store", "not a folder");
  return true;
}

std::vector<ReferenceStore::Listed> ReferenceStore::list() const {
  std::vector<Listed> out;
  std::error_code ec;
  if (!exists()) return out;
  for (const auto& f : fs::directory_iterator(dir_, ec)) {
    const std::string name = f.path().filename().string();
    if (!is_store_file(name) || f.path().extension() != ".json") continue;
    const std::string key = name.substr(0, 64);
    if (out.size() == kMaxStoreEntries)
      throw InputError(dir_, "<folder>", "more than " + std::to_string(kMaxStoreEntries) +
                                             " entries: empty it (elsbench reference --clear)");
    StoreLoad l = load_file(f.path(), key);
    out.push_back({f.path().string(), std::move(l.entry), l.refused});
  }
  std::sort(out.begin(), out.end(), [](const Listed& a, const Listed& b) { return a.path < b.path; });
  return out;
}

std::size_t ReferenceStore::clear(std::vector<std::string>* kept) const {
  std::size_t removed = 0;
  std::error_code ec;
  if (!exists()) return 0;
  std::vector<fs::path> doomed;
  for (const auto& f : fs::directory_iterator(dir_, ec)) {
    const std::string name = f.path().filename().string();
    if (!is_store_file(name)) continue;
    if (f.path().extension() == ".tmp" || !foreign_document(f.path()))
      doomed.push_back(f.path());
    else if (kept)
      kept->push_back(f.path().string());
  }
  for (const auto& p : doomed) removed += fs::remove(p, ec) ? 1 : 0;
  return removed;
}

}  // namespace elsbench
