// libFuzzer target: the book loader (JSON Lines, one note a line, or CSV, one note a row), never
// throwing for a bad line; a CSV book only for a header it cannot read.
#include <string>

#include "products/book_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

namespace {

// Every line is a note or a bad line that names its line, never both.
void lines_named(const elsbench::Book& book, const std::string& source) {
  for (const auto& bad : book.bad)
    if (bad.line < 1 || bad.message.find(source + ":" + std::to_string(bad.line)) != 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return elsbench::fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    const elsbench::Book book = elsbench::parse_book("fuzz.jsonl", text);
    lines_named(book, "fuzz.jsonl");
    lines_named(elsbench::parse_book("fuzz.csv", text), "fuzz.csv");  // the CSV reader where the first line says so
    elsbench::require_clean(book);
  });
}
