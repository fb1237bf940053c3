#pragma once
// A thread of a parallel region waiting for a counter another thread raises, the way libgomp's own
// barriers wait: spinning first (a wait between two balanced threads is short, and a sleeping
// thread takes tens of microseconds to wake, a step's worth on a small grid), then sleeping.
// OMP_WAIT_POLICY=passive sleeps at once; active spins on; unset spins GOMP_SPINCOUNT's default of
// 300000 times, or 1000 when the region has more threads than the machine has processors.
#include <omp.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace elsbench {

inline std::size_t spins_before_sleep() {
  constexpr std::size_t kUnset = 300000, kUnsetOversubscribed = 1000;
  static const std::size_t policy = [] {
    const char* p = std::getenv("OMP_WAIT_POLICY");
    if (p && strcasecmp(p, "passive") == 0) return std::size_t{0};
    if (p && strcasecmp(p, "active") == 0) return std::numeric_limits<std::size_t>::max();
    return kUnset;
  }();
  static const int procs = omp_get_num_procs();  // a system call each time it is asked
  if (policy == kUnset && omp_get_num_threads() > procs) return kUnsetOversubscribed;
  return policy;
}

// Until `counter` reaches `value` (acquire: what was written before it was raised is visible).
inline void wait_until_at_least(const std::atomic<std::size_t>& counter, std::size_t value) {
  const std::size_t spins = spins_before_sleep();
  for (std::size_t i = 0; i < spins; ++i) {
    if (counter.load(std::memory_order_acquire) >= value) return;
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  for (std::size_t seen = counter.load(std::memory_order_acquire); seen < value;
       seen = counter.load(std::memory_order_acquire))
    counter.wait(seen, std::memory_order_acquire);
}

// Raises `counter` to `value` and wakes whoever sleeps on it.
inline void raise_to(std::atomic<std::size_t>& counter, std::size_t value) {
  counter.store(value, std::memory_order_release);
  counter.notify_all();
}

}  // namespace elsbench
