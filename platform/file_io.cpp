#include "platform/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "platform/input_error.hpp"

namespace elsbench {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

void write_all(int fd, const std::string& content, const std::string& path) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t wrote = ::write(fd, p, left);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", path);
    }
    p += wrote;
    left -= static_cast<std::size_t>(wrote);
  }
}

// The nearest part of the output's folder that exists must be a folder (--out results.json/x.json).
void refuse_a_file_as_folder(const std::string& path) {
  std::filesystem::path part = std::filesystem::path(path).parent_path();
  for (; !part.empty() && part != part.root_path(); part = part.parent_path()) {
    std::error_code ec;
    const auto status = std::filesystem::status(part, ec);
    if (!std::filesystem::exists(status)) continue;
    if (!std::filesystem::is_directory(status))
      throw InputError(path, "<file>", "'" + part.string() + "' is not a folder, so nothing can be written under it");
    return;
  }
}

}  // namespace

void require_output_path(const std::string& path) {
  refuse_a_file_as_folder(path);
  // Never renamed over a device, a fifo or a folder (--out /dev/null, /dev/stdout, .): an output
  // is a regular file. Nor over a link: writing through it would change the file it points to,
  // replacing it would undo what someone linked; either way the user meant something else.
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (std::filesystem::is_symlink(status))
    throw InputError(path, "<file>", "is a symbolic link; an output is never written through one or over one");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw InputError(path, "<file>", "exists and is not a regular file; an output must be one");
}

void make_output_folder(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) return;
  refuse_a_file_as_folder(path);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw InputError(path, "<file>", "cannot create its folder '" + folder.string() + "': " + ec.message());
}

void write_file_atomically(const std::string& path, const std::string& content) {
  require_output_path(path);
  make_output_folder(path);
  // A name of its own, so that two writers of the same file never share a temporary.
  std::string temp = path + ".XXXXXX.tmp";
  const int fd = ::mkstemps(temp.data(), 4);
  if (fd < 0) fail("cannot create", temp);
  try {
    if (::fchmod(fd, 0644) != 0) fail("cannot set the mode of", temp);
    write_all(fd, content, temp);
    if (::fsync(fd) != 0) fail("cannot flush", temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    fail("cannot close", temp);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    fail("cannot rename into", path);
  }
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace elsbench
