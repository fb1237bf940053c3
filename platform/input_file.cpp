#include "platform/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "platform/input_error.hpp"

namespace elsbench {
namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;

// An open input, closed on every path out.
class InputFd {
 public:
  explicit InputFd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
    if (fd_ < 0) throw InputError(path, "<file>", std::string("cannot open: ") + std::strerror(errno));
  }
  ~InputFd() { ::close(fd_); }
  InputFd(const InputFd&) = delete;
  InputFd& operator=(const InputFd&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void refuse_size(const std::string& path, const InputLimits& limits, const std::string& size) {
  throw InputError(path, "<file>", size + "more than the " + byte_count_text(limits.max_bytes) + " " + limits.holds);
}

// Reads the regular file at `path` chunk by chunk into `take`, refusing it once past the limit:
// the limit holds for a file that grows while it is read as for one whose size says so at once.
template <class Take>
void read_chunks(const std::string& path, const InputLimits& limits, Take take) {
  const InputFd in(path);
  struct stat st {};
  if (::fstat(in.fd(), &st) != 0) throw InputError(path, "<file>", std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw InputError(path, "<file>", "not a regular file (a fifo, a device or a folder is never read: it could "
                                     "block or never end)");
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > limits.max_bytes) refuse_size(path, limits, std::to_string(size) + " bytes, ");
  char buffer[kChunkBytes];
  std::uintmax_t total = 0;
  for (;;) {
    const ssize_t got = ::read(in.fd(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    if (got == 0) return;
    total += static_cast<std::uintmax_t>(got);
    if (total > limits.max_bytes) refuse_size(path, limits, "");
    take(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

// Cuts bytes into lines as they arrive. A line longer than the limit is dropped as it grows (only
// its flaw is handed over), so that no line costs more memory than the limit.
class LineSplitter {
 public:
  LineSplitter(std::size_t max_line_bytes, const TakeLine& take) : max_(max_line_bytes), take_(take) {}

  void feed(std::string_view chunk) {
    while (!chunk.empty()) {
      const std::size_t end = chunk.find('\n');
      const std::string_view piece = chunk.substr(0, end);
      if (end != std::string_view::npos && line_.empty() && !too_long_ && fits(piece.size())) {
        hand_over(piece);  // the whole line lies in the chunk: no copy
      } else {
        keep(piece);
        if (end != std::string_view::npos) hand_over(line_);
      }
      seen_ += piece.size();
      if (end == std::string_view::npos) return;
      ++seen_;
      chunk.remove_prefix(end + 1);
      start_ = seen_;
      line_.clear();
      too_long_ = false;
    }
  }

  void finish() {
    if (!line_.empty() || too_long_) hand_over(line_);
  }

 private:
  bool fits(std::size_t bytes) const { return max_ == 0 || bytes <= max_; }

  void keep(std::string_view piece) {
    if (too_long_) return;
    if (!fits(line_.size() + piece.size())) {
      too_long_ = true;
      line_.clear();
      line_.shrink_to_fit();
      return;
    }
    line_.append(piece);
  }

  void hand_over(std::string_view text) {
    InputLine line{++number_, start_, {}, {}};
    if (too_long_) {
      line.flaw = "longer than " + std::to_string(max_) + " bytes";
    } else if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
      line.flaw = "not valid UTF-8 at byte offset " + std::to_string(start_ + bad) + " of the file";
    } else {
      line.text = text;
    }
    take_(line);
  }

  std::size_t max_;
  const TakeLine& take_;
  std::string line_;         // the line so far, when it spans chunks
  bool too_long_ = false;
  int number_ = 0;
  std::uintmax_t start_ = 0;  // offset of the current line's first byte
  std::uintmax_t seen_ = 0;   // bytes consumed so far
};

// What a lead byte asks of its sequence. RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF, which the second byte's range rules out. Length 0: not a lead byte.
struct Utf8Lead {
  std::size_t length = 0;
  unsigned low = 0x80, high = 0xBF;  // the second byte's range
};

Utf8Lead utf8_lead(unsigned b) {
  if (b >= 0xC2 && b <= 0xDF) return {2};
  if (b == 0xE0) return {3, 0xA0};
  if (b == 0xED) return {3, 0x80, 0x9F};
  if (b >= 0xE1 && b <= 0xEF) return {3};
  if (b == 0xF0) return {4, 0x90};
  if (b == 0xF4) return {4, 0x80, 0x8F};
  if (b >= 0xF1 && b <= 0xF3) return {4};
  return {};
}

}  // namespace

std::string read_input(const std::string& path, const InputLimits& limits) {
  std::string text;
  read_chunks(path, limits, [&](std::string_view chunk) { text.append(chunk); });
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string::npos)
    throw InputError(path, "<file>", "not valid UTF-8 at byte offset " + std::to_string(bad));
  return text;
}

void read_input_lines(const std::string& path, const InputLimits& limits, const TakeLine& take) {
  LineSplitter lines(limits.max_line_bytes, take);
  read_chunks(path, limits, [&](std::string_view chunk) { lines.feed(chunk); });
  lines.finish();
}

void split_input_lines(std::string_view text, std::size_t max_line_bytes, const TakeLine& take) {
  LineSplitter lines(max_line_bytes, take);
  lines.feed(text);
  lines.finish();
}

std::size_t first_invalid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned lead = p[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    const Utf8Lead l = utf8_lead(lead);
    if (l.length == 0 || i + l.length > n || p[i + 1] < l.low || p[i + 1] > l.high) return i;
    for (std::size_t k = 2; k < l.length; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += l.length;
  }
  return std::string_view::npos;
}

std::string byte_count_text(std::uintmax_t bytes) {
  if (bytes != 0 && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes != 0 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string shipped_or_given(const std::string& name_or_path, const std::string& folder) {
  namespace fs = std::filesystem;
  const std::string shipped = folder + "/" + name_or_path + ".json";
  std::error_code ec;
  if (name_or_path.find('/') == std::string::npos && fs::is_regular_file(shipped, ec)) return shipped;
  return fs::exists(fs::symlink_status(name_or_path, ec)) ? name_or_path : shipped;
}

}  // namespace elsbench
