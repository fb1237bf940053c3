#pragma once
// Why a pricing in progress should stop before its end: a request made from outside it (a Python
// KeyboardInterrupt), or a deadline of its own (--max-seconds) passed. The CPU marches look
// between time steps and end with SolverError (Interrupted, or TooMuchWork past a deadline), and
// book and sweep runs take no further note or case on a request. Requests are process-wide, as a
// Ctrl-C is; a deadline belongs to the thread that prices (the one that runs a march, or leads
// its threads). The marches also count their steps here, for a caller's progress bar.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace elsbench {

void request_stop();
void clear_stop_request();
bool stop_requested();

// While one is alive, the calling thread's marches stop once `seconds` have passed since it began.
class StopDeadline {
 public:
  explicit StopDeadline(double seconds);
  ~StopDeadline();
  StopDeadline(const StopDeadline&) = delete;
  StopDeadline& operator=(const StopDeadline&) = delete;

 private:
  std::chrono::steady_clock::time_point previous_;
  double previous_seconds_;
};

// While one is alive, the calling thread's marches stop as if asked to once `flag` is set: a
// pricing whose result is no longer wanted (the other grid of its pair failed) ends at its next
// step instead of running to its end.
class StopWhenSet {
 public:
  explicit StopWhenSet(const std::atomic<bool>& flag);
  ~StopWhenSet();
  StopWhenSet(const StopWhenSet&) = delete;
  StopWhenSet& operator=(const StopWhenSet&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

// A deadline for a whole command (price --max-seconds: its Greeks' and error estimate's pricings
// included), seen by every thread from now on; 0 clears it.
void set_command_deadline(double seconds);

enum class StopReason { None, Requested, Deadline };
// What the calling thread's march should do now; `seconds` (with Deadline) the limit that passed.
StopReason stop_reason(double* seconds = nullptr);

// Time steps of the marches since the counters were last reset: planned and done. A march adds
// its steps to `planned` as it starts, unless the whole was planned before (total_known).
struct MarchProgress {
  std::atomic<std::uint64_t> planned{0}, done{0};
  std::atomic<bool> total_known{false};
  void reset() {
    planned = 0;
    done = 0;
    total_known = false;
  }
  void start_march(std::uint64_t steps) {
    if (!total_known) planned += steps;
  }
};
MarchProgress& march_progress();

}  // namespace elsbench
