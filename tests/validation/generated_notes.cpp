// The error bars on a stored sample of generated notes against their Monte Carlo references.
// The sample: the first four notes of `book generate --assets A --seed S` for one, two and three
// assets (seeds 11, 12, 13, the books of slow.accuracy_generated) and each book's first
// knocked-in note, as generated when they were stored (reference/generated_notes/); each reference is reference/values/<id>.json, written by `elsbench reference
// --write` with its provenance (paths, seed, commit, machine, command) from
// reference/generated_notes.sh. A bar is judged where 3 standard errors are at most a fifth of it
// (tests/validation/bar_tally.hpp): the default grid and plain n = 100 and 200 in 1-D and 2-D,
// plain n = 32 and 48 in 3-D here; the 3-D default grid (half a minute a note on 2 cores) in
// slow.generated_notes_3d_default.
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "reference/stored_reference.hpp"
#include "tests/validation/bar_tally.hpp"

using namespace elsbench;
using namespace elsbench::testing;

namespace {

struct Sample {
  int assets;
  std::uint64_t seed;
};
constexpr Sample kSamples[] = {{1, 11}, {2, 12}, {3, 13}};

// The sampled notes of a book as reference/generated_notes.sh stored them (reference/
// generated_notes/book-s<seed>-*.json: the generator may since have changed a note's last bits),
// each with its stored reference: a reference computed for other terms fails here, not silently.
std::vector<std::pair<Product, Reference>> sample_of(const Sample& s) {
  std::vector<std::string> files;
  const std::string prefix = "book-s" + std::to_string(s.seed) + "-";
  for (const auto& f : std::filesystem::directory_iterator(project_root() + "/reference/generated_notes"))
    if (f.path().filename().string().rfind(prefix, 0) == 0) files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  BOOST_TEST_REQUIRE(files.size() == 5u, prefix << ": " << files.size() << " stored notes");
  std::vector<std::pair<Product, Reference>> out;
  for (const std::string& file : files) {
    const Product p = load_product_file(file);
    BOOST_TEST_REQUIRE(p.dimension() == s.assets);
    const auto stored = load_stored_reference(p.id);
    BOOST_TEST_REQUIRE(stored.has_value(), p.id << ": no reference/values/" << p.id << ".json");
    BOOST_TEST_REQUIRE(prices_product(*stored, p), p.id << ": its stored reference priced other terms");
    out.push_back({p, {stored->price, 3 * stored->std_error,
                       "Monte Carlo (" + std::to_string(stored->paths / 1'000'000) + "e6 paths)"}});
  }
  return out;
}

void check_sample(const Sample& s, bool with_default, const std::vector<int>& plain) {
  BarTally tally;
  for (const auto& [note, ref] : sample_of(s)) {
    if (with_default) judge_default(tally, note, ref);
    for (int n : plain) judge_plain(tally, note, n, ref);
  }
  tally.print(std::to_string(s.assets) + "-asset");
  BOOST_TEST(!tally.empty());
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_asset_notes) { check_sample(kSamples[0], true, {100, 200}); }
BOOST_AUTO_TEST_CASE(two_asset_notes) { check_sample(kSamples[1], true, {100, 200}); }
BOOST_AUTO_TEST_CASE(three_asset_notes) { check_sample(kSamples[2], false, {32, 48}); }

// Run by name as slow.generated_notes_3d_default (tests/CMakeLists.txt).
BOOST_AUTO_TEST_CASE(three_asset_default_grids, *boost::unit_test::disabled()) {
  check_sample(kSamples[2], true, {});
}
