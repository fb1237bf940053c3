#pragma once
// How busy the machine was around a timing: a time taken while other work held the cores, or
// while the CPU ran below its top frequency, measures the machine's state as much as the code.
// A timing is marked noisy then (harness/run/case_run.cpp), and compare and the report's history
// leave noisy times out of their verdicts.
#include <optional>
#include <string>

namespace elsbench {

struct LoadSample {
  double load_average = 0;                 // runnable threads, 1-minute average (getloadavg)
  std::optional<double> frequency_ratio;   // slowest core's current / its maximum frequency (cpufreq)
  std::optional<long long> throttle_events;  // thermal throttling events summed over cores
};

LoadSample sample_load();

// Why a timing between `before` and `after` on a machine of `cores` cores is noisy, or "" if it is
// not: the load average above the core count (the timing's own threads are part of the load, so
// above it other work took cores the timing needed), a core below 80 % of its top frequency, or
// throttling events during it.
std::string noise_reason(const LoadSample& before, const LoadSample& after, int cores);

}  // namespace elsbench
