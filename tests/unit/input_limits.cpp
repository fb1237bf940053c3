// Limits of what a file may ask for (docs/reliability.md): a book's line length, note count and
// file size, a reference store entry's size, and numbers beyond a double; each is refused with the
// file (and line) named, never met with an exception from the JSON library.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "harness/references/reference_store.hpp"
#include "harness/results/results_file.hpp"
#include "harness/sweep/preset.hpp"
#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
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

BOOST_AUTO_TEST_CASE(a_line_of_valid_utf8_that_is_not_json_is_named_in_printable_ascii) {
  // The parser quoted the first byte of "\u00e9" alone ("last read: '\xc3'"): half a character on
  // the terminal and a replacement character in the results file.
  const Book book = parse_book("text.jsonl", note_line("a") + "\n\xc3\xa9t\xc3\xa9\nhello\n");
  BOOST_TEST(book.notes.size() == 1u);
  BOOST_TEST_REQUIRE(book.bad.size() == 2u);
  for (const auto& bad : book.bad) {
    BOOST_TEST(mentions(bad.message, "not valid JSON"), bad.message);
    for (const char c : bad.message) BOOST_TEST((c >= 0x20 && c < 0x7f), bad.message);
  }
  BOOST_TEST(mentions(book.bad[0].message, "text.jsonl:2: field '<line>'"), book.bad[0].message);
  BOOST_TEST(mentions(book.bad[0].message, "\\xc3"), book.bad[0].message);
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
                           R"(, "benchmarks": [{"case_id": "a", "status": "pass", "price": null, "real_time": 1}]})") ==
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
             "benchmarks[0].real_time");  // every entry has its time (Google Benchmark's), a skipped one 0
  BOOST_TEST(refused_field(R"({"context": )" + context +
                           R"(, "benchmarks": [{"case_id": "a", "status": "skipped", "real_time": 0}]})") == "accepted");
}

// The one reader of input files (platform/input_file.hpp).

namespace {

std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

std::vector<InputLine> lines_of(std::string_view text, std::size_t max_line) {
  std::vector<InputLine> lines;
  split_input_lines(text, max_line, [&](const InputLine& l) {
    lines.push_back(l);
    lines.back().text = {};  // a line's text lives only while it is handed over
  });
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_input_that_is_not_a_regular_file_is_refused_unread) {
  Scratch s;
  const fs::path fifo = s.dir / "f.jsonl";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);  // no writer: an open or read would block
  const InputLimits limits{1 << 20, "a test may hold"};
  for (const fs::path& p : {fifo, s.dir}) {
    const std::string why = refusal([&] { read_input(p.string(), limits); });
    BOOST_TEST(mentions(why, p.string() + ": field '<file>': not a regular file"), why);
  }
  BOOST_TEST(mentions(refusal([&] { load_book_file(fifo.string()); }), "not a regular file"));
  BOOST_TEST(mentions(refusal([&] { read_input((s.dir / "none").string(), limits); }), "cannot open"));
}

BOOST_AUTO_TEST_CASE(the_byte_limit_holds_while_reading_not_only_by_the_size_the_file_states) {
  // /proc files state a size of 0 and hold more: only the bytes read can refuse them.
  const std::string why = refusal([] { read_input("/proc/self/maps", {16, "a test may hold"}); });
  BOOST_TEST(why == "/proc/self/maps: field '<file>': more than the 16 bytes a test may hold");
  Scratch s;
  const fs::path file = s.dir / "five.json";
  { std::ofstream(file) << "12345"; }
  BOOST_TEST(mentions(refusal([&] { read_input(file.string(), {4, "a test may hold"}); }),
                      "5 bytes, more than the 4 bytes a test may hold"));
  BOOST_TEST(read_input(file.string(), {5, "a test may hold"}) == "12345");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_refused_naming_its_byte_offset) {
  BOOST_TEST(first_invalid_utf8("plain, caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80") == std::string_view::npos);
  for (const std::string bad : {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"})
    BOOST_TEST(first_invalid_utf8("ab" + bad + "cd") == 2u, "bytes " << bad.size());
  Scratch s;
  const fs::path file = s.dir / "p.json";
  { std::ofstream(file) << "{\"id\": \"caf\xe9\"}"; }
  BOOST_TEST(mentions(refusal([&] { load_product_file(file.string()); }),
                      file.string() + ": field '<file>': not valid UTF-8 at byte offset 11"));
}

BOOST_AUTO_TEST_CASE(a_line_file_is_cut_into_lines_with_their_flaws_and_offsets) {
  const auto lines = lines_of("ok\n\xff\n" + std::string(9, 'x') + "\nlast", 8);
  BOOST_TEST_REQUIRE(lines.size() == 4u);
  BOOST_TEST(lines[0].flaw.empty());
  BOOST_TEST(lines[1].number == 2);
  BOOST_TEST(lines[1].offset == 3u);
  BOOST_TEST(lines[1].flaw == "not valid UTF-8 at byte offset 3 of the file");
  BOOST_TEST(lines[2].flaw == "longer than 8 bytes");
  BOOST_TEST(lines[3].offset == 15u);
  BOOST_TEST(lines[3].flaw.empty());
}

BOOST_AUTO_TEST_CASE(a_book_reads_alike_from_a_file_in_chunks_and_from_text) {
  // Lines longer than the reader's 64 KiB chunks: one kept whole, one past the book's limit.
  const std::string text = note_line("a") + "\n" + std::string(kMaxBookLineBytes + 10, ' ') + "x\n\xff\xfe\n" +
                           note_line("b") + std::string(70000, ' ') + "\n" + note_line("c");
  Scratch s;
  const fs::path file = s.dir / "b.jsonl";
  { std::ofstream(file, std::ios::binary) << text; }
  for (const Book& book : {load_book_file(file.string()), parse_book(file.string(), text)}) {
    BOOST_TEST(book.notes.size() == 2u);  // b's line is too long as well
    BOOST_TEST_REQUIRE(book.bad.size() == 3u);
    BOOST_TEST(book.bad[0].message == file.string() + ":2: field '<line>': longer than 65536 bytes");
    BOOST_TEST(book.bad[1].message == file.string() + ":3: field '<line>': not valid UTF-8 at byte offset " +
                                          std::to_string(note_line("a").size() + kMaxBookLineBytes + 13) + " of the file");
    BOOST_TEST(book.bad[2].line == 4);
    BOOST_TEST(book.notes[1].line == 5);
  }
}

BOOST_AUTO_TEST_CASE(a_key_given_twice_in_one_object_is_refused_naming_the_key) {
  // The parser kept the last copy: a call with `"type": "european-put"` appended priced a put, and
  // `"vol": 0.2, "vol": 0.9` priced at 0.9, both with exit 0.
  std::string call = note_line("a");
  const std::string put = call.substr(0, call.size() - 1) + ",\"type\":\"european-put\"}";
  try {
    product_from_text(put, "call.json");
    BOOST_FAIL("a product with two 'type' keys was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "type");
    BOOST_TEST(mentions(e.what(), "call.json"), e.what());
    BOOST_TEST(mentions(e.what(), "twice"), e.what());
  }
  std::string vols = call;
  vols.replace(vols.find("\"vol\":"), 6, "\"vol\":0.9,\"vol\":");
  const Book book = parse_book("vols.jsonl", note_line("b") + "\n" + vols + "\n");
  BOOST_TEST(book.notes.size() == 1u);
  BOOST_TEST_REQUIRE(book.bad.size() == 1u);
  BOOST_TEST(book.bad[0].line == 2);
  BOOST_TEST(book.bad[0].field == "vol");
  // The same key in two objects is no duplicate: every underlying has its own "vol".
  BOOST_TEST(product_from_text(note_line("c"), "c.json").id == "c");
}

BOOST_AUTO_TEST_CASE(a_nul_byte_is_refused_not_taken_for_the_end_of_the_text) {
  const std::string text = note_line("a") + std::string(1, '\0') + "{garbage";
  try {
    product_from_text(text, "nul.json");
    BOOST_FAIL("a product followed by a NUL byte and garbage was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(mentions(e.what(), "NUL byte at offset " + std::to_string(note_line("a").size())), e.what());
  }
  const Book book = parse_book("nul.jsonl", text + "\n");
  BOOST_TEST(book.notes.empty());
  BOOST_TEST(book.bad.size() == 1u);
}
