#pragma once
// Heap bytes in use, counted by the replaced global operator new/delete, so that a pricing's
// peak host memory is measured rather than estimated. Allocations through malloc directly
// (some of Eigen's) are not seen; the process peak RSS is reported beside it.
#include <cstddef>

namespace elsbench::memory {

std::size_t current_bytes();
std::size_t peak_bytes();
// Restarts the peak at the current level; returns that level.
std::size_t reset_peak();
std::size_t process_peak_rss_bytes();

// Peak bytes allocated above the level at construction.
class Scope {
 public:
  Scope() : base_(reset_peak()) {}
  std::size_t peak() const { return peak_bytes() > base_ ? peak_bytes() - base_ : 0; }

 private:
  std::size_t base_;
};

}  // namespace elsbench::memory
