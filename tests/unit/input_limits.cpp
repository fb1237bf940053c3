// Limits of what a file may ask for (docs/reliability.md): a book's line length, note count and
// file size, a reference store entry's size, and numbers beyond a double; each is refused with the
// file (and line) named, never met with an exception from the JSON library.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "harness/references/reference_store.hpp"
#include "harness/results/results_file.hpp"
#include "harness/sweep/preset.hpp"
#include "platform/input_error.hpp"
#include "products/book_file.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "products/product_terms.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
namespace fs = std::filesystem;

namespace {

struct Scratch : testing::ScratchDir {
  Scratch() : ScratchDir("limits") {}
};

std::string note_line(const std::string& id) {
  nlohmann::json j = product_to_json(resolve_product("european-call"));
  j["id"] = id;
  return j.dump();
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(a_book_line_beyond_its_limit_or_a_number_beyond_a_double_is_a_bad_line) {
  const std::string text = note_line("a") + "\n" + std::string(kMaxBookLineBytes + 1, ' ') + "x\n" +
                           note_line("b").replace(note_line("b").find("\"rate\":") + 7, 4, "1e400") + "\n" +
                           note_line("c") + "\n";
  const Book book = parse_book("limits.jsonl", text);
  BOOST_TEST(book.notes.size() == 2u);
  BOOST_TEST_REQUIRE(book.bad.size() == 2u);
  BOOST_TEST(book.bad[0].line == 2);
  BOOST_TEST(book.bad[0].field == "<line>");
  BOOST_TEST(mentions(book.bad[0].message, "limits.jsonl:2"), book.bad[0].message);
  BOOST_TEST(book.bad[1].line == 3);
  BOOST_TEST(mentions(book.bad[1].message, "limits.jsonl:3"), book.bad[1].message);
}

BOOST_AUTO_TEST_CASE(a_book_of_more_notes_than_its_limit_is_refused_naming_the_line) {
  std::string text;
  text.reserve(2 * (kMaxBookNotes + 1));
  for (std::size_t i = 0; i <= kMaxBookNotes; ++i) text += "x\n";  // bad lines count too
  try {
    parse_book("big.jsonl", text);
    BOOST_FAIL("accepted " << kMaxBookNotes + 1 << " lines");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "big.jsonl:" + std::to_string(kMaxBookNotes + 1));
    BOOST_TEST(mentions(e.what(), "more than " + std::to_string(kMaxBookNotes) + " notes"), e.what());
  }
}

BOOST_AUTO_TEST_CASE(a_book_file_beyond_its_size_limit_is_refused_unread) {
  Scratch s;
  const fs::path file = s.dir / "huge.jsonl";
  { std::ofstream(file) << note_line("a") << "\n"; }
  fs::resize_file(file, kMaxBookBytes + 1);  // sparse: no disk is used
  try {
    load_book_file(file.string());
    BOOST_FAIL("accepted a book of " << kMaxBookBytes + 1 << " bytes");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == file.string());
    BOOST_TEST(mentions(e.what(), "MiB a book may hold"), e.what());
  }
}

BOOST_AUTO_TEST_CASE(a_store_entry_beyond_its_size_limit_or_with_1e400_is_refused_with_the_reason) {
  Scratch s;
  const ReferenceStore store(s.dir.string());
  const Product note = resolve_product("els-1a-stepdown");
  const fs::path entry = store.entry_path(content_hash(note));
  { std::ofstream(entry) << "{\"price\": 1e400}"; }
  StoreLoad l = store.load(note);
  BOOST_TEST(!l.entry);
  BOOST_TEST(mentions(l.refused, "not valid JSON"), l.refused);
  fs::resize_file(entry, kMaxStoreEntryBytes + 1);
  l = store.load(note);
  BOOST_TEST(!l.entry);
  BOOST_TEST(mentions(l.refused, "an entry may hold"), l.refused);
  BOOST_TEST(store.list().at(0).refused == l.refused);
}

BOOST_AUTO_TEST_CASE(a_preset_grid_is_bounded_like_the_command_line) {
  const auto refused_field = [](const std::string& grid) {
    try {
      preset_from_text(R"({"axes": {"solvers": ["adi"], "products": ["european-call"], "n": [8]}, "grid": )" + grid +
                           "}",
                       "p.json");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  BOOST_TEST(refused_field(R"({"s_max": 1e308})") == "grid.s_max");
  BOOST_TEST(refused_field(R"({"density": 1e9})") == "grid.density");
  BOOST_TEST(refused_field(R"({"damping": 1e300})") == "grid.damping");  // was a float-to-int overflow
  BOOST_TEST(refused_field(R"({"damping": 2.5})") == "grid.damping");
  BOOST_TEST(refused_field(R"({"mesh": 7})") == "grid.mesh");
  BOOST_TEST(refused_field(R"({"typo": 1})") == "grid.typo");
  BOOST_TEST(refused_field(R"({"s_max": 4, "density": 0.5, "damping": 2, "mesh": "sinh"})") == "accepted");
}

BOOST_AUTO_TEST_CASE(a_results_file_for_resume_is_checked_entry_by_entry) {
  const auto refused_field = [](const std::string& text) {
    try {
      results_file_from_text(text, "r.json");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("accepted");
  };
  const std::string context = R"({"elsbench": {"schema": 1}})";
  BOOST_TEST(refused_field(R"({"context": )" + context + R"(, "benchmarks": [1]})") == "benchmarks[0]");
  BOOST_TEST(refused_field(R"({"context": )" + context +
                           R"(, "benchmarks": [{"case_id": "a", "status": "pass", "price": null}]})") ==
             "benchmarks[0].price");
  BOOST_TEST(refused_field(R"({"context": {"elsbench": {"schema": "1"}}, "benchmarks": []})") ==
             "context.elsbench.schema");
  BOOST_TEST(refused_field(R"({"context": {"elsbench": {"schema": 1, "running": {"case_id": 3}}}, "benchmarks": []})") ==
             "context.elsbench.running");
  BOOST_TEST(refused_field(R"({"context": {"elsbench": {"schema": 1, "machine": 5}}, "benchmarks": []})") ==
             "context.elsbench.machine");
  BOOST_TEST(refused_field(R"({"context": {"elsbench": {"schema": 1, "references": {"seed": -1}}}, "benchmarks": []})") ==
             "context.elsbench.references.seed");
  BOOST_TEST(refused_field(R"({"context": )" + context + R"(, "benchmarks": [{"case_id": "a", "status": "skipped"}]})") ==
             "accepted");
}
