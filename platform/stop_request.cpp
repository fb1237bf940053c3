#include "platform/stop_request.hpp"

namespace elsbench {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> stop_flag{false};
// The calling thread's deadline; time_point::max(): none.
thread_local Clock::time_point deadline = Clock::time_point::max();
thread_local double deadline_seconds = 0;
// The command's deadline (nanoseconds of the steady clock; max: none) and its length.
std::atomic<Clock::rep> command_end{Clock::duration::max().count()};
std::atomic<double> command_seconds{0};
// The calling thread's own stop flag (StopWhenSet); nullptr: none.
thread_local const std::atomic<bool>* own_stop = nullptr;

}  // namespace

void request_stop() { stop_flag.store(true); }
void clear_stop_request() { stop_flag.store(false); }
bool stop_requested() { return stop_flag.load(std::memory_order_relaxed); }

StopDeadline::StopDeadline(double seconds) : previous_(deadline), previous_seconds_(deadline_seconds) {
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  if (end < deadline) {
    deadline = end;
    deadline_seconds = seconds;
  }
}

StopDeadline::~StopDeadline() {
  deadline = previous_;
  deadline_seconds = previous_seconds_;
}

StopWhenSet::StopWhenSet(const std::atomic<bool>& flag) : previous_(own_stop) { own_stop = &flag; }

StopWhenSet::~StopWhenSet() { own_stop = previous_; }

void set_command_deadline(double seconds) {
  command_seconds.store(seconds);
  command_end.store(seconds > 0 ? (Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(seconds)))
                                      .time_since_epoch()
                                      .count()
                                : Clock::duration::max().count());
}

StopReason stop_reason(double* seconds) {
  if (stop_requested() || (own_stop && own_stop->load(std::memory_order_relaxed))) return StopReason::Requested;
  if (deadline != Clock::time_point::max() && Clock::now() >= deadline) {
    if (seconds) *seconds = deadline_seconds;
    return StopReason::Deadline;
  }
  if (const auto end = command_end.load(std::memory_order_relaxed);
      end != Clock::duration::max().count() && Clock::now().time_since_epoch().count() >= end) {
    if (seconds) *seconds = command_seconds.load();
    return StopReason::Deadline;
  }
  return StopReason::None;
}

MarchProgress& march_progress() {
  static MarchProgress progress;
  return progress;
}

}  // namespace elsbench
