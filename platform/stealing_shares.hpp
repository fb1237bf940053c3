#pragma once
// Blocks [0, count) of a phase in equal contiguous shares, one per thread (as thread_share), where
// a thread that has finished its own share takes blocks from the far end of the others'. Rows of a
// grid are not equally costly to the machine (one half of the min call's rows took 8 % longer on
// one thread, 20 % on two), and a thread woken late from a passive barrier starts late: with fixed
// shares the other waits at the phase's closing barrier. A block's work must not depend on the
// thread that runs it, and a barrier must separate one phase from the next.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "platform/thread_share.hpp"

namespace elsbench {

class StealingShares {
 public:
  StealingShares(std::size_t count, int threads)
      : count_(count), threads_(threads), shares_(std::make_unique<Share[]>(static_cast<std::size_t>(threads))) {}

  // f(block) for every block, once; called by every thread of the team in each phase.
  template <class F>
  void run(const F& f) {
    const int n = omp_get_num_threads(), t = omp_get_thread_num();
    if (n > threads_ || count_ > kBlockMask) {
      // More threads than shares, or more blocks than a state holds: the fixed share.
      for (auto [b, last] = thread_share(count_); b < last; ++b) f(b);
      return;
    }
    const std::uint64_t epoch = ++shares_[t].phase & kEpochMask;
    // The first thread to reach the phase opens every share, so that a late thread's share can be
    // taken from before it arrives; the barrier before the phase left every share empty.
    for (int k = 0; k < n; ++k) open(k, n, epoch);
    std::size_t b = 0;
    while (take(t, epoch, true, b)) f(b);
    for (int k = 1; k < n; ++k)
      while (take((t + k) % n, epoch, false, b)) f(b);
  }

 private:
  // A share's state, one 64-bit word: epoch (16 bits), next block (24), end (24).
  static constexpr std::uint64_t kEpochMask = 0xffff, kBlockMask = 0xffffff;
  static std::uint64_t pack(std::uint64_t epoch, std::uint64_t next, std::uint64_t end) {
    return epoch << 48 | next << 24 | end;
  }
  struct alignas(64) Share {
    std::atomic<std::uint64_t> state{0};
    std::uint64_t phase = 0;  // the owner's phase count, read only by the owner
  };

  void open(int k, int n, std::uint64_t epoch) {
    std::uint64_t s = shares_[k].state.load(std::memory_order_acquire);
    if (s >> 48 == epoch) return;
    const std::size_t first = count_ * static_cast<std::size_t>(k) / static_cast<std::size_t>(n);
    const std::size_t last = count_ * static_cast<std::size_t>(k + 1) / static_cast<std::size_t>(n);
    shares_[k].state.compare_exchange_strong(s, pack(epoch, first, last), std::memory_order_acq_rel);
  }

  // The next block of share k from its front (the owner) or its back (another thread).
  bool take(int k, std::uint64_t epoch, bool front, std::size_t& block) {
    std::uint64_t s = shares_[k].state.load(std::memory_order_acquire);
    for (;;) {
      const std::uint64_t next = s >> 24 & kBlockMask, end = s & kBlockMask;
      if (s >> 48 != epoch || next >= end) return false;
      const std::uint64_t taken = front ? pack(epoch, next + 1, end) : pack(epoch, next, end - 1);
      if (shares_[k].state.compare_exchange_weak(s, taken, std::memory_order_acq_rel)) {
        block = front ? next : end - 1;
        return true;
      }
    }
  }

  std::size_t count_;
  int threads_;
  std::unique_ptr<Share[]> shares_;
};

}  // namespace elsbench
