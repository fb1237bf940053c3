#pragma once
// What the emulators share about running GPU threads on the CPU: the order in which they run the
// threads of a phase, the lanes of a warp between two shuffles and the blocks of a kernel
// (shuffled, since the GPU promises no order, so a phase that reads what another thread of the
// same phase writes fails here too; seeded, so tests repeat), and a warp's 32 lanes in lockstep.
#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <vector>

#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {

inline std::mt19937& order_rng() {
  thread_local std::mt19937 rng(20261123u);
  return rng;
}

inline std::vector<int> random_order(int count) {
  std::vector<int> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), order_rng());
  return order;
}

// The 32 lanes of a warp on the CPU, for warp_carries (chunked_solve.hpp): a Reg<X> holds every
// lane's X; each(f) runs f for every lane in a random order; a shuffle reads the other lanes'
// values as they were before it, as __shfl_up_sync / __shfl_down_sync do.
struct LockstepWarp {
  template <class X>
  using Reg = std::array<X, kWarp>;
  template <class F>
  void each(F f) const {
    for (int lane : random_order(kWarp)) f(lane);
  }
  template <class X>
  X& at(Reg<X>& r, int lane) const {
    return r[static_cast<std::size_t>(lane)];
  }
  template <class X>
  Reg<X> shfl_up(const Reg<X>& r, int off) const {
    Reg<X> out = r;
    for (int lane = off; lane < kWarp; ++lane) out[static_cast<std::size_t>(lane)] = r[static_cast<std::size_t>(lane - off)];
    return out;
  }
  template <class X>
  Reg<X> shfl_down(const Reg<X>& r, int off) const {
    Reg<X> out = r;
    for (int lane = 0; lane + off < kWarp; ++lane) out[static_cast<std::size_t>(lane)] = r[static_cast<std::size_t>(lane + off)];
    return out;
  }
};

}  // namespace elsbench::gpu
