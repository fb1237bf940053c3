#include "platform/machine_load.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace elsbench {
namespace {

constexpr double kThrottledFrequency = 0.8;

std::optional<long long> read_number(const std::filesystem::path& p) {
  std::ifstream in(p);
  long long v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

// Each core's cpufreq and thermal_throttle counters, where the kernel exposes them (most VMs do not).
void read_cores(LoadSample& s) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/cpu", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || name.find_first_not_of("0123456789", 3) != std::string::npos)
      continue;
    const auto now = read_number(entry.path() / "cpufreq/scaling_cur_freq");
    const auto top = read_number(entry.path() / "cpufreq/cpuinfo_max_freq");
    if (now && top && *top > 0) {
      const double ratio = static_cast<double>(*now) / static_cast<double>(*top);
      s.frequency_ratio = std::min(s.frequency_ratio.value_or(ratio), ratio);
    }
    if (const auto events = read_number(entry.path() / "thermal_throttle/core_throttle_count"))
      s.throttle_events = s.throttle_events.value_or(0) + *events;
  }
}

std::string fixed(double x, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

LoadSample sample_load() {
  LoadSample s;
  double load[1] = {0};
  if (getloadavg(load, 1) == 1) s.load_average = load[0];
  read_cores(s);
  return s;
}

std::string noise_reason(const LoadSample& before, const LoadSample& after, int cores) {
  std::string why;
  const auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  const double load = std::max(before.load_average, after.load_average);
  if (cores > 0 && load > cores)
    add("load average " + fixed(load, 2) + " on " + std::to_string(cores) + " cores");
  for (const auto& ratio : {before.frequency_ratio, after.frequency_ratio})
    if (ratio && *ratio < kThrottledFrequency) {
      add("a core at " + fixed(100 * *ratio, 0) + " % of its top frequency");
      break;
    }
  if (before.throttle_events && after.throttle_events && *after.throttle_events > *before.throttle_events)
    add(std::to_string(*after.throttle_events - *before.throttle_events) + " thermal throttling events");
  return why;
}

}  // namespace elsbench
