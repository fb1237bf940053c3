#pragma once
// A book of notes: JSON Lines, one product per line in the product schema (product_json.hpp), or
// CSV, one note a row under a header (book_csv.hpp): a .jsonl/.json/.ndjson name is JSON Lines,
// any other is told by its first line (a JSON object, or a CSV header).
// A bad line does not spoil the book: it is listed with its line number and field, and the other
// notes are still priced; --strict refuses the whole book before any work (require_clean).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

struct BookNote {
  int line = 0;  // 1-based line of the book file
  Product product;
};

struct BadLine {
  int line = 0;
  std::string field;    // as InputError names it: "autocall[2].barrier", "<line>" for bad JSON
  std::string reason;   // "expected a number, got string"
  std::string message;  // the whole refusal: "book.jsonl:12: field 'rate': expected a number..."
};

struct Book {
  std::string source;
  std::vector<BookNote> notes;  // in file order
  std::vector<BadLine> bad;     // in file order
};

// Limits of a book (docs/reliability.md): a line longer than kMaxBookLineBytes is a bad line; a
// book of more notes (good or bad lines) or a file of more bytes is refused whole, naming the
// line or the file.
inline constexpr std::size_t kMaxBookNotes = 100000;
inline constexpr std::size_t kMaxBookLineBytes = 64 * 1024;
inline constexpr std::uintmax_t kMaxBookBytes = 256ULL << 20;

// Parses the text of a book named `source` (a file name, for messages). Never throws for bad
// content: each line is a note or a bad line; blank lines are skipped; a repeated id is a bad line.
// Throws InputError naming the line past kMaxBookNotes.
Book parse_book(const std::string& source, std::string_view text);
// Reads and parses a file; throws InputError when it cannot be read.
Book load_book_file(const std::string& path);
// Throws InputError naming the first bad line when there is any, or when the book has no note.
void require_clean(const Book& book);

}  // namespace elsbench
