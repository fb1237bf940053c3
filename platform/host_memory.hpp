#pragma once
// Memory this host can give a new allocation now, for pre-flight checks.
#include <cstddef>

namespace elsbench {

// A field of /proc/meminfo ("MemTotal:", "MemAvailable:") in bytes; 0 when it cannot be read.
std::size_t meminfo_bytes(const char* key);
// MemAvailable in bytes; 0 when it cannot be read (then nothing is refused).
inline std::size_t available_host_bytes() { return meminfo_bytes("MemAvailable:"); }

}  // namespace elsbench
