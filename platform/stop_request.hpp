#pragma once
// A request, made from outside a pricing, that it stop (a Python KeyboardInterrupt): the CPU
// marches look at it between time steps and end with SolverError(Interrupted), and book and sweep
// runs take no further note or case. Process-wide, as a Ctrl-C is. The marches also count their
// steps here, for a caller's progress bar.
#include <atomic>
#include <cstdint>

namespace elsbench {

void request_stop();
void clear_stop_request();
bool stop_requested();

// Time steps of the marches since the counters were last reset: planned (added as each march
// starts) and done.
struct MarchProgress {
  std::atomic<std::uint64_t> planned{0}, done{0};
  void reset() {
    planned = 0;
    done = 0;
  }
};
MarchProgress& march_progress();

}  // namespace elsbench
