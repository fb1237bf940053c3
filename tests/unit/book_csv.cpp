// Books as a desk keeps them (products/book_csv.hpp): the shipped CSV template read note by note
// as the same products in JSON Lines, each bad row named with its line and CSV column, a bad
// header refused whole, and a pretty-printed product given as a book told what a book is.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <string>

#include "products/book_csv.hpp"
#include "products/book_file.hpp"
#include "products/catalog.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace {

std::string template_path() { return project_root() + "/products/templates/book.csv"; }

// The template's header and first row, with one cell replaced.
std::string with_cell(const std::string& column, const std::string& value) {
  std::string header, first;
  std::ifstream in(template_path());
  std::getline(in, header);
  std::getline(in, first);
  bool ok = false;
  std::vector<std::string> names = csv_cells(header, ok), cells = csv_cells(first, ok);
  std::string row;
  for (std::size_t i = 0; i < names.size(); ++i) row += (i ? "," : "") + (names[i] == column ? value : cells[i]);
  return header + "\n" + row + "\n";
}

BOOST_AUTO_TEST_CASE(the_template_reads_as_the_same_notes_in_json_lines) {
  const Book csv = load_book_file(template_path());
  BOOST_TEST_REQUIRE(csv.bad.empty(), (csv.bad.empty() ? "" : csv.bad.front().message));
  BOOST_TEST_REQUIRE(csv.notes.size() == 3u);
  std::string jsonl;
  for (const BookNote& n : csv.notes) jsonl += product_to_json(n.product).dump() + "\n";
  const Book same = parse_book("same.jsonl", jsonl);
  BOOST_TEST_REQUIRE(same.notes.size() == 3u);
  for (std::size_t k = 0; k < 3; ++k)
    BOOST_TEST(product_to_json(same.notes[k].product) == product_to_json(csv.notes[k].product));
  const Product& two = csv.notes[0].product;
  BOOST_TEST(two.isin == "XS0000ELS018");
  BOOST_TEST(two.tags == (std::vector<std::string>{"desk-A", "2026Q4"}), boost::test_tools::per_element());
  BOOST_TEST(two.notional == 10000.0);
  BOOST_TEST(two.correlation[0][1] == 0.5);
  BOOST_TEST(two.els().autocall.size() == 6u);
  const Product& three = csv.notes[1].product;
  BOOST_TEST(three.dimension() == 3);
  BOOST_TEST(three.correlation[2][1] == 0.6);
  BOOST_TEST(three.els().autocall.size() == 4u);
  BOOST_TEST(csv.notes[2].product.els().knocked_in);
  BOOST_TEST(csv.notes[2].line == 4);
}

BOOST_AUTO_TEST_CASE(a_bad_row_is_named_with_its_line_and_column) {
  const auto bad_field = [](const std::string& column, const std::string& value) {
    const Book b = parse_book("desk.csv", with_cell(column, value));
    BOOST_TEST_REQUIRE(b.bad.size() == 1u, column);
    BOOST_TEST(b.bad.front().line == 2);
    return b.bad.front();
  };
  BOOST_TEST(bad_field("rate", "3%").field == "rate");
  BOOST_TEST(bad_field("underlying_2_vol", "0").field == "underlying_2_vol");
  BOOST_TEST(bad_field("autocall_3_barrier", "abc").field == "autocall_3_barrier");
  BOOST_TEST(bad_field("isin", "XS0000ELS019").field == "isin");
  BOOST_TEST(bad_field("correlation_1_2", "").field == "correlation_*");  // no correlation: asked for, never 0
  BOOST_TEST(bad_field("correlation_1_3", "0.3").field == "correlation_*");  // a third asset the note lacks
  const BadLine cells = parse_book("desk.csv", "id,rate\nx,0.03,1\n").bad.front();
  BOOST_TEST(cells.field == "<row>");
  BOOST_TEST(cells.message.find("desk.csv:2") != std::string::npos, cells.message);
}

BOOST_AUTO_TEST_CASE(a_bad_header_refuses_the_book_naming_the_column) {
  try {
    parse_book("desk.csv", "id,notionl,rate\nx,1,0.03\n");
    BOOST_FAIL("an unknown column was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "notionl");
    BOOST_TEST(std::string(e.what()).find("did you mean 'notional'") != std::string::npos, e.what());
  }
  BOOST_CHECK_THROW(parse_book("desk.csv", "rate,notional\n0.03,1\n"), InputError);      // no id
  BOOST_CHECK_THROW(parse_book("desk.csv", "id,rate,rate\nx,0.03,0.03\n"), InputError);  // twice
}

BOOST_AUTO_TEST_CASE(a_pretty_printed_product_is_told_what_a_book_is) {
  const Book b = parse_book("note.json", "{\n  \"id\": \"x\"\n}\n");
  BOOST_TEST_REQUIRE(!b.bad.empty());
  BOOST_TEST(b.bad.front().message.find("a book is JSON Lines") != std::string::npos, b.bad.front().message);
}

}  // namespace
}  // namespace elsbench
