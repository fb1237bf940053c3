#include "products/book_file.hpp"

#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "platform/input_error.hpp"
#include "platform/input_file.hpp"
#include "platform/json_text.hpp"
#include "products/book_csv.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string line_source(const std::string& source, int line) { return source + ":" + std::to_string(line); }

// One line: a note, or the refusal naming its line and field (its CSV column for a CSV book).
void read_line(Book& book, std::map<std::string, int>& first_line_of, std::string_view text, int line,
               const CsvBookHeader* csv) {
  const std::string where = line_source(book.source, line);
  try {
    Product p;
    try {
      p = product_from_json(csv ? csv->row_json(text, where) : parse_json(text, where, "<line>"), where);
    } catch (const InputError& e) {
      if (!csv && text.find_first_not_of(" \t\r{") == std::string_view::npos)
        throw InputError(where, "<line>",
                         "a line of '{' alone: a book is JSON Lines, each product whole on one line, or CSV (a "
                         "pretty-printed product file is priced by `elsbench price --product FILE`)");
      if (!csv) throw;
      throw InputError(where, csv_column(e.field()), e.reason());
    }
    const auto [seen, fresh] = first_line_of.emplace(p.id, line);
    if (!fresh)
      throw InputError(where, "id", "'" + p.id + "' repeats the note of line " + std::to_string(seen->second));
    book.notes.push_back({line, std::move(p)});
  } catch (const InputError& e) {
    book.bad.push_back({line, e.field(), e.reason(), e.what()});
  }
}

// A reader's line into the book: skipped when blank, a bad line when flawed (too long, not UTF-8)
// or refused by the loader, else a note.
class BookLines {
 public:
  explicit BookLines(const std::string& source) : json_lines_(named_json_lines(source)) { book_.source = source; }

  void take(const InputLine& line) {
    if (line.flaw.empty() && blank(line.text)) return;
    // Unless its name says JSON Lines, a book whose first line does not open a JSON object is a
    // CSV book, that line its header.
    if (!json_lines_ && !csv_ && line.flaw.empty()) {
      const std::string_view t = line.text.substr(line.text.find_first_not_of(" \t"));
      if (t.front() != '{') {
        csv_.emplace(line.text, line_source(book_.source, line.number));
        return;
      }
      json_lines_ = true;
    }
    if (book_.notes.size() + book_.bad.size() == kMaxBookNotes)
      throw InputError(line_source(book_.source, line.number), "<file>",
                       "more than " + std::to_string(kMaxBookNotes) + " notes: split the book");
    if (!line.flaw.empty()) {
      const std::string where = line_source(book_.source, line.number);
      book_.bad.push_back({line.number, "<line>", line.flaw, where + ": field '<line>': " + line.flaw});
      return;
    }
    read_line(book_, first_line_of_, line.text, line.number, csv_ ? &*csv_ : nullptr);
  }

  Book book() && { return std::move(book_); }

 private:
  static bool named_json_lines(const std::string& source) {
    for (std::string_view tail : {".jsonl", ".json", ".ndjson", ".JSONL"})
      if (source.size() >= tail.size() && source.compare(source.size() - tail.size(), tail.size(), tail) == 0)
        return true;
    return false;
  }

  bool json_lines_;
  Book book_;
  std::map<std::string, int> first_line_of_;
  std::optional<CsvBookHeader> csv_;
};

}  // namespace

Book parse_book(const std::string& source, std::string_view text) {
  BookLines lines(source);
  split_input_lines(text, kMaxBookLineBytes, [&](const InputLine& line) { lines.take(line); });
  return std::move(lines).book();
}

Book load_book_file(const std::string& path) {
  BookLines lines(path);
  read_input_lines(path, {kMaxBookBytes, "a book may hold: split the book", kMaxBookLineBytes},
                   [&](const InputLine& line) { lines.take(line); });
  return std::move(lines).book();
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
