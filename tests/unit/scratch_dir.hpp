#pragma once
// A folder of a test's own under the system's temporary folder, emptied when the test starts and
// removed when it ends; the process id keeps parallel CTest runs apart.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace elsbench::testing {

struct ScratchDir {
  std::filesystem::path dir;
  explicit ScratchDir(const std::string& name)
      : dir(std::filesystem::temp_directory_path() / ("elsbench-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::filesystem::path operator/(const std::string& name) const { return dir / name; }
};

}  // namespace elsbench::testing
