// libFuzzer target: the book loader (JSON Lines, one note a line), never throwing for a bad line.
#include "products/book_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return elsbench::fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    const elsbench::Book book = elsbench::parse_book("fuzz.jsonl", text);
    // Every line is a note or a bad line that names its line, never both.
    for (const auto& bad : book.bad)
      if (bad.line < 1 || bad.message.find("fuzz.jsonl:" + std::to_string(bad.line)) != 0) __builtin_trap();
    elsbench::require_clean(book);
  });
}
