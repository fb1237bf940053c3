#pragma once
// Timing through Google Benchmark. Each case is registered on its own, run with its JSON reporter
// writing into memory, and read back, so the results file keeps Google Benchmark's own `context`
// and `benchmarks` layout (and its median, mean, stddev, cv, plus a `min` aggregate).
// Repetitions, as nvbench takes them, until the noise is small enough or time runs out: after
// `min_repetitions`, more while the median's 95 % interval (normal approximation) is wider than
// `target` of the median, within `max_seconds` of timed pricing and `max_repetitions`
// (docs/reports.md, Noise). target 0: exactly min_repetitions.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace elsbench {

struct TimingRule {
  int min_repetitions = 3;
  int max_repetitions = 50;
  double target = 0.05;      // half-width of the median's 95 % interval, as a fraction of the median
  double max_seconds = 10;   // timed pricing per case after which no further repetition starts
};

struct Timings {
  nlohmann::json entries = nlohmann::json::array();  // one per repetition, then the aggregates
  int repetitions = 0;
  double median_interval = 0;  // half-width of the median's 95 % interval / median; 0 with < 2 repetitions
  std::string stopped_by;      // "target met", "time limit", "max repetitions", "fixed" or "error"
};

// Runs `price_once` one iteration per repetition with manual time: the seconds it returns are what
// is reported (the solver's own measure: wall clock around the solve on the CPU, CUDA events on a
// GPU). A repetition that throws is reported by Google Benchmark as an error (error_occurred,
// error_message = skip_reason) and ends the timing.
Timings time_case(const std::string& name, const TimingRule& rule, const std::function<double()>& price_once);

// The median's 95 % interval half-width over its value, from repetition times; 0 with fewer than two.
double median_interval(const std::vector<double>& seconds);

// Google Benchmark's `context` object for this machine (date, host, CPUs, caches, load...).
nlohmann::json benchmark_context();

}  // namespace elsbench
