#pragma once
// Memory this host can give a new allocation now, for pre-flight checks.
#include <cstddef>

namespace elsbench {

// MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read (then nothing is refused).
std::size_t available_host_bytes();

}  // namespace elsbench
