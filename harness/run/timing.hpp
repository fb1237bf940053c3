#pragma once
// Timing through Google Benchmark. Each case is registered on its own, run with its JSON reporter
// writing into memory, and read back, so the results file keeps Google Benchmark's own `context`
// and `benchmarks` layout (and its median, mean, stddev, cv, plus a `min` aggregate).
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace elsbench {

// Runs `price_once` `repetitions` times, one iteration each, with manual time: the seconds it
// returns are what is reported (the solver's own measure: wall clock around the solve on the CPU,
// CUDA events on a GPU). A repetition that throws is reported by Google Benchmark as an error
// (error_occurred, error_message = skip_reason) and left out of the aggregates.
// Returns the `benchmarks` entries: one per repetition, then the aggregates.
nlohmann::json time_case(const std::string& name, int repetitions, const std::function<double()>& price_once);

// Google Benchmark's `context` object for this machine (date, host, CPUs, caches, load...).
nlohmann::json benchmark_context();

}  // namespace elsbench
