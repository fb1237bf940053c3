#pragma once
// The one reader of every input file (books, products, presets, results files, the attempts log,
// stored references, reference store entries). A command must never hang on its input nor grow
// past a limit because of it: only a regular file is read (a fifo or a device could block or never
// end), the byte limit is applied while reading, and the text must be valid UTF-8 (results files
// are JSON, which holds no other). Refusals are InputErrors naming the file, field "<file>".
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace elsbench {

struct InputLimits {
  std::uintmax_t max_bytes = 0;     // a larger file is refused: unread when its size says so
  std::string holds;                // ends the refusal: "more than the 256 MiB <holds>"
  std::size_t max_line_bytes = 0;   // line files only: a longer line is a flawed line, never kept whole
};

// A whole document: the bytes of the regular file at `path`, at most limits.max_bytes, checked to
// be UTF-8 (the refusal names the byte offset of the first bad byte).
std::string read_input(const std::string& path, const InputLimits& limits);

// The file a `--preset NAME|FILE` names: a shipped one's name (no '/', and folder/NAME.json
// exists) even where a file or folder of that name is at hand (`ci` in the project root); else a
// path that exists, as given, so that read_input refuses a fifo or a folder as such; else
// folder/NAME.json, which may not exist.
std::string shipped_or_given(const std::string& name_or_path, const std::string& folder);

// One line of a line file (JSON Lines). A flawed line (too long, not UTF-8) has no text, and its
// flaw says why and where; the other lines are still read.
struct InputLine {
  int number = 0;              // 1-based
  std::uintmax_t offset = 0;   // byte offset of its first byte in the file
  std::string_view text;       // without its '\n'; valid until the next line is handed over
  std::string flaw;            // empty, or "longer than 65536 bytes", "not valid UTF-8 at byte 1234 ..."
};
using TakeLine = std::function<void(const InputLine&)>;

// Hands each line of the regular file at `path` to `take` as it is read (a file past
// limits.max_bytes is refused; the lines before the refusal have been handed over).
void read_input_lines(const std::string& path, const InputLimits& limits, const TakeLine& take);
// The same lines and flaws for text already in memory (a book given as a string).
void split_input_lines(std::string_view text, std::size_t max_line_bytes, const TakeLine& take);

// The offset of the first byte of `text` that is not part of valid UTF-8, or npos.
std::size_t first_invalid_utf8(std::string_view text);

// "256 MiB", "64 KiB" or "1000 bytes": a limit as a refusal states it.
std::string byte_count_text(std::uintmax_t bytes);

}  // namespace elsbench
