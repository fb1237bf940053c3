#include "products/book_file.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "platform/input_error.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string line_source(const std::string& source, int line) { return source + ":" + std::to_string(line); }

// One line: a note, or the refusal naming its line and field.
void read_line(Book& book, std::map<std::string, int>& first_line_of, std::string_view text, int line) {
  const std::string where = line_source(book.source, line);
  try {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
      throw InputError(where, "<line>", std::string("not valid JSON: ") + e.what());
    }
    Product p = product_from_json(j, where);
    const auto [seen, fresh] = first_line_of.emplace(p.id, line);
    if (!fresh)
      throw InputError(where, "id", "'" + p.id + "' repeats the note of line " + std::to_string(seen->second));
    book.notes.push_back({line, std::move(p)});
  } catch (const InputError& e) {
    const std::string message = e.what();
    const std::string prefix = e.file() + ": field '" + e.field() + "': ";
    const bool prefixed = message.compare(0, prefix.size(), prefix) == 0;
    book.bad.push_back({line, e.field(), prefixed ? message.substr(prefix.size()) : message, message});
  }
}

}  // namespace

Book parse_book(const std::string& source, std::string_view text) {
  Book book;
  book.source = source;
  std::map<std::string, int> first_line_of;
  int line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    const std::string_view row = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (blank(row)) continue;
    if (row.size() > kMaxBookLineBytes) {
      const std::string where = line_source(source, line);
      book.bad.push_back({line, "<line>", "longer than " + std::to_string(kMaxBookLineBytes) + " bytes",
                          where + ": field '<line>': longer than " + std::to_string(kMaxBookLineBytes) + " bytes"});
      continue;
    }
    if (book.notes.size() + book.bad.size() == kMaxBookNotes)
      throw InputError(line_source(source, line), "<file>",
                       "more than " + std::to_string(kMaxBookNotes) + " notes: split the book");
    read_line(book, first_line_of, row, line);
  }
  return book;
}

Book load_book_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "<file>", "cannot open");
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > kMaxBookBytes)
    throw InputError(path, "<file>", std::to_string(bytes) + " bytes, more than the " +
                                         std::to_string(kMaxBookBytes >> 20) + " MiB a book may hold: split the book");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_book(path, text.str());
}

void require_clean(const Book& book) {
  if (!book.bad.empty()) {
    const BadLine& first = book.bad.front();
    throw InputError(line_source(book.source, first.line), first.field,
                     first.reason + " (--strict: the book is refused; " + std::to_string(book.bad.size()) +
                         " bad line(s))");
  }
  if (book.notes.empty()) throw InputError(book.source, "<file>", "no notes");
}

}  // namespace elsbench
