// libFuzzer target: the bounded reader (platform/input_file) as the book loader meets it. The bytes
// are written to a memory file and read back by path like any input, invalid UTF-8 and long lines
// included: the lines handed over must tile the file (numbers in order, each at its offset, a
// good line its exact bytes and valid UTF-8, a flawed one no text), the book read from the file
// must be the book parsed from the same text, and a whole-document read must refuse exactly the
// texts that are not UTF-8.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "platform/input_file.hpp"
#include "products/book_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

namespace elsbench::fuzz {
namespace {

// The fuzzer's input as a file: one memory file, rewritten for each input.
std::string as_file(std::string_view text) {
  static const int fd = ::memfd_create("input-fuzz.jsonl", MFD_CLOEXEC);
  if (fd < 0 || ::ftruncate(fd, 0) != 0) __builtin_trap();
  if (!text.empty() && ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) __builtin_trap();
  return "/proc/self/fd/" + std::to_string(fd);
}

// Short line limits (the first byte picks one) reach the long-line path with short inputs.
void check_lines(const std::string& path, std::string_view text, std::size_t max_line) {
  int expected = 1;
  std::uintmax_t next = 0;
  read_input_lines(path, {1 << 20, "fuzz input may hold", max_line}, [&](const InputLine& line) {
    if (line.number != expected++ || line.offset != next || line.offset > text.size()) __builtin_trap();
    const std::size_t end = std::min(text.find('\n', line.offset), text.size());
    const std::string_view bytes = text.substr(line.offset, end - line.offset);
    if (line.flaw.empty() && (line.text != bytes || bytes.size() > max_line)) __builtin_trap();
    if (line.flaw.empty() && first_invalid_utf8(bytes) != std::string_view::npos) __builtin_trap();
    if (!line.flaw.empty() && (!line.text.empty() || (bytes.size() <= max_line && first_invalid_utf8(bytes) ==
                                                                                      std::string_view::npos)))
      __builtin_trap();
    next = end + 1;
  });
}

void check_document(const std::string& path, std::string_view text) {
  const bool utf8 = first_invalid_utf8(text) == std::string_view::npos;
  try {
    if (read_input(path, {1 << 20, "fuzz input may hold"}) != text || !utf8) __builtin_trap();
  } catch (const InputError&) {
    if (utf8) __builtin_trap();
  }
}

bool same_book(const Book& a, const Book& b) {
  if (a.notes.size() != b.notes.size() || a.bad.size() != b.bad.size()) return false;
  for (std::size_t i = 0; i < a.bad.size(); ++i)
    if (a.bad[i].line != b.bad[i].line || a.bad[i].message != b.bad[i].message) return false;
  for (std::size_t i = 0; i < a.notes.size(); ++i)
    if (a.notes[i].line != b.notes[i].line || a.notes[i].product.id != b.notes[i].product.id) return false;
  return true;
}

}  // namespace
}  // namespace elsbench::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace elsbench;
  return fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    const std::string path = fuzz::as_file(text);
    fuzz::check_lines(path, text, text.empty() ? 1 : 1 + static_cast<unsigned char>(text[0]) % 64);
    fuzz::check_document(path, text);
    const Book from_file = load_book_file(path);
    if (!fuzz::same_book(from_file, parse_book(path, text))) __builtin_trap();
    require_clean(from_file);
  });
}
