#pragma once
// The calling OpenMP thread's contiguous share of `count` items: [first, last), equal to within one.
// Passes that split work the same way leave each thread the same lines, so what one stage writes
// the next reads from the same core's cache.
#include <omp.h>

#include <cstddef>
#include <utility>

namespace elsbench {

inline std::pair<std::size_t, std::size_t> thread_share(std::size_t count) {
  const auto threads = static_cast<std::size_t>(omp_get_num_threads());
  const auto t = static_cast<std::size_t>(omp_get_thread_num());
  return {count * t / threads, count * (t + 1) / threads};
}

}  // namespace elsbench
