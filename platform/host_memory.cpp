#include "platform/host_memory.hpp"

#include <fstream>
#include <string>

namespace elsbench {

std::size_t meminfo_bytes(const char* field) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (in >> key >> kib) {
    if (key == field) return kib * 1024;
    in.ignore(256, '\n');
  }
  return 0;
}

}  // namespace elsbench
