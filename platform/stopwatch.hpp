#pragma once
// Wall time since a point, in seconds: the one reading of steady_clock the timed phases share.
#include <chrono>

namespace elsbench {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace elsbench
