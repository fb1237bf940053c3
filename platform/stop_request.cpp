#include "platform/stop_request.hpp"

namespace elsbench {
namespace {

std::atomic<bool> stop_flag{false};

}  // namespace

void request_stop() { stop_flag.store(true); }
void clear_stop_request() { stop_flag.store(false); }
bool stop_requested() { return stop_flag.load(std::memory_order_relaxed); }

MarchProgress& march_progress() {
  static MarchProgress progress;
  return progress;
}

}  // namespace elsbench
