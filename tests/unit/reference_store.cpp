// References on demand: the store is keyed by a product's terms (not its id or file), a computed
// value is the Monte Carlo engine's own for the paths it records, it survives across look-ups,
// and a stale, damaged, foreign or edited entry is refused and computed again, never trusted.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/references/reference_policy.hpp"
#include "harness/references/reference_store.hpp"
#include "platform/input_error.hpp"
#include "platform/sha256.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "products/product_terms.hpp"
#include "reference/monte_carlo.hpp"

using namespace elsbench;
namespace fs = std::filesystem;
using From = ReferenceLookup::From;

namespace {

// A note no one stored a value for: the one-asset ELS with other coupons, under another id.
Product my_note(const std::function<void(nlohmann::json&)>& edit = [](nlohmann::json&) {}) {
  nlohmann::json j = product_to_json(resolve_product("els-1a-stepdown"));
  j["id"] = "my-note";
  for (auto& a : j["autocall"]) a["coupon"] = a["coupon"].get<double>() * 1.1;
  edit(j);
  return product_from_json(j, "my-note (test)");
}

struct TempStore {
  fs::path dir = fs::temp_directory_path() / ("elsbench-store-test-" + std::to_string(::getpid()));
  TempStore() { fs::remove_all(dir); }
  ~TempStore() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  // 0.05 % of notional: quick (about 1e5 paths for the one-asset note), still a real target.
  ReferencePolicy policy() const {
    ReferencePolicy p;
    p.mode = ReferencePolicy::Mode::Auto;
    p.store = dir.string();
    p.target_fraction = 5e-4;
    p.budget_seconds = 60;
    p.device = "cpu";
    return p;
  }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

BOOST_AUTO_TEST_CASE(sha256_known_answers) {
  BOOST_TEST(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  BOOST_TEST(sha256_hex(std::string(1000000, 'a')) ==
             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

BOOST_AUTO_TEST_CASE(the_key_is_the_terms_not_the_id_or_the_names) {
  const Product a = my_note();
  const Product renamed = my_note([](nlohmann::json& j) {
    j["id"] = "another-name";
    j["underlyings"][0]["name"] = "OTHER";
  });
  BOOST_TEST(content_hash(a) == content_hash(renamed));
  BOOST_TEST(content_hash(a).size() == 64u);
  // Same id, other terms: another key.
  const Product edited = my_note([](nlohmann::json& j) { j["knock_in"]["barrier"] = 0.6; });
  BOOST_TEST(content_hash(a) != content_hash(edited));
  const Product rate = my_note([](nlohmann::json& j) { j["rate"] = 0.0300001; });
  BOOST_TEST(content_hash(a) != content_hash(rate));
}

BOOST_AUTO_TEST_CASE(auto_computes_stores_and_reuses_the_engines_own_value) {
  const TempStore t;
  const ReferencePolicy policy = t.policy();
  const Product note = my_note();
  // Without auto there is no reference for a product no one stored.
  ReferencePolicy stored = policy;
  stored.mode = ReferencePolicy::Mode::Stored;
  BOOST_TEST(!reference_for(note, stored).has_value());

  const ReferenceLookup first = look_up_reference(note, policy);
  BOOST_REQUIRE(first.value.has_value());
  BOOST_TEST((first.from == From::Computed));
  BOOST_TEST(first.value->source == "monte-carlo-on-demand");
  BOOST_TEST(first.value->std_error <= 5e-4 * note.notional);
  BOOST_TEST(fs::path(first.entry).parent_path() == t.dir);

  // The stored value is the engine's for the paths and seed it records: nothing else produced it.
  const auto listed = ReferenceStore(t.dir.string()).list();
  BOOST_REQUIRE(listed.size() == 1u);
  BOOST_REQUIRE(listed[0].entry.has_value());
  const StoredReference& v = listed[0].entry->value;
  McOptions o;
  o.paths = v.paths;
  o.seed = v.seed;
  BOOST_TEST(monte_carlo_price(note, o).price == v.price);
  BOOST_TEST(!v.git_commit.empty());
  BOOST_TEST(v.machine.contains("cpu_model"));
  BOOST_TEST(v.command.find("elsbench reference") != std::string::npos);

  // A second look-up (a later run: nothing is kept in memory) reads the store.
  const ReferenceLookup again = look_up_reference(note, policy);
  BOOST_TEST((again.from == From::Store));
  BOOST_TEST(again.value->price == first.value->price);
  // The same terms under another id and file share it.
  const Product renamed = my_note([](nlohmann::json& j) { j["id"] = "renamed"; });
  BOOST_TEST((look_up_reference(renamed, policy).from == From::Store));
  // Catalog products keep their closed form or stored value, and the store is not touched.
  BOOST_TEST((look_up_reference(resolve_product("min-call"), policy).from == From::ClosedFormOrCatalog));
}

BOOST_AUTO_TEST_CASE(edited_terms_get_a_new_reference) {
  const TempStore t;
  const ReferencePolicy policy = t.policy();
  const Product note = my_note();
  const auto before = look_up_reference(note, policy);
  const Product edited = my_note([](nlohmann::json& j) { j["knock_in"]["barrier"] = 0.65; });
  const auto after = look_up_reference(edited, policy);
  BOOST_TEST((after.from == From::Computed));
  BOOST_TEST(after.entry != before.entry);
  // A higher knock-in barrier can only lower the note's value; by far more than the errors here.
  BOOST_TEST(after.value->price < before.value->price - 5 * (after.value->std_error + before.value->std_error));
  BOOST_TEST(ReferenceStore(t.dir.string()).list().size() == 2u);
}

BOOST_AUTO_TEST_CASE(damaged_entries_are_refused_and_recomputed) {
  const TempStore t;
  const ReferencePolicy policy = t.policy();
  const Product note = my_note();
  const auto first = look_up_reference(note, policy);
  const fs::path entry = first.entry;
  const std::string good = read(entry);

  const auto refused_then_fixed = [&](const std::string& damaged, const std::string& why) {
    write(entry, damaged);
    const auto l = look_up_reference(note, policy);
    BOOST_TEST(!l.refused.empty(), why);
    BOOST_TEST((l.from == From::Computed), why);
    BOOST_TEST(l.value->price == first.value->price, why);  // recomputed with the same seed and paths
    BOOST_TEST((look_up_reference(note, policy).from == From::Store), why << ": rewritten whole");
    BOOST_TEST_MESSAGE(why << ": " << l.refused);
  };
  refused_then_fixed(good.substr(0, good.size() / 2), "truncated");
  refused_then_fixed("{\"hello\": 1}", "foreign JSON");
  refused_then_fixed("[1, 2, 3]", "not an object");
  {
    nlohmann::json j = nlohmann::json::parse(good);
    j["reference"]["price"] = j["reference"]["price"].get<double>() + 1.0;
    refused_then_fixed(j.dump(2), "price edited");
  }
  {
    // Another product's entry, whole and sound, copied under this product's key.
    const Product other = my_note([](nlohmann::json& j) { j["rate"] = 0.02; });
    const auto o = look_up_reference(other, policy);
    refused_then_fixed(read(o.entry), "another product's entry");
  }
  // A link in place of an entry is never followed, nor written through or replaced by the
  // recomputed entry: refused, naming it (`reference --clear` removes it).
  const fs::path outside = t.dir.parent_path() / ("elsbench-store-outside-" + std::to_string(::getpid()) + ".json");
  write(outside, "{}");
  fs::remove(entry);
  fs::create_symlink(outside, entry);
  BOOST_CHECK_EXCEPTION(look_up_reference(note, policy), InputError, [&](const InputError& e) {
    return e.file() == entry.string() && std::string(e.what()).find("is a symbolic link") != std::string::npos;
  });
  BOOST_TEST(fs::is_symlink(entry));
  BOOST_TEST(read(outside) == "{}");
  fs::remove(outside);
}

BOOST_AUTO_TEST_CASE(list_and_clear_touch_only_the_stores_entries) {
  const TempStore t;
  const ReferenceStore store(t.dir.string());
  look_up_reference(my_note(), t.policy());
  write(t.dir / (std::string(64, 'a') + ".json"), "not json");  // a damaged entry: the store's
  write(t.dir / (std::string(64, 'b') + ".json"), R"({"mine": 1})");  // another's document: kept
  write(t.dir / "notes.txt", "mine");
  const auto listed = store.list();
  BOOST_REQUIRE(listed.size() == 3u);
  int refused = 0;
  for (const auto& l : listed) refused += l.entry ? 0 : 1;
  BOOST_TEST(refused == 2);
  std::vector<std::string> kept;
  BOOST_TEST(store.clear(&kept) == 2u);
  BOOST_TEST(kept == std::vector<std::string>{(t.dir / (std::string(64, 'b') + ".json")).string()});
  BOOST_TEST(store.list().size() == 1u);
  BOOST_TEST(fs::exists(t.dir / "notes.txt"));
  BOOST_CHECK_THROW(store.entry_path("../../etc/passwd"), std::invalid_argument);
  BOOST_CHECK_THROW(store.entry_path(std::string(64, 'G')), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_budget_too_small_for_the_target_is_recorded_and_replaced_later) {
  const TempStore t;
  ReferencePolicy tight = t.policy();
  tight.target_fraction = 1e-6;  // 1e-4 on 100: about 1e9 paths, far beyond the budget
  tight.budget_seconds = 0.3;
  const Product note = my_note();
  const auto short_of_it = look_up_reference(note, tight);
  BOOST_REQUIRE(short_of_it.value.has_value());
  BOOST_TEST(short_of_it.value->std_error > 1e-6 * note.notional);
  // A looser target than what was reached is served from the store.
  ReferencePolicy loose = t.policy();
  loose.target_fraction = short_of_it.value->std_error / note.notional * 1.01;
  BOOST_TEST((look_up_reference(note, loose).from == From::Store));
}
