#include "harness/run/timing.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "harness/placement/case_skip.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

double minimum(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// Google Benchmark's JSON reporter, writing into a string (its warnings, e.g. about CPU
// scaling, are kept out of the terminal: the context records the same facts).
class InMemoryJson {
 public:
  InMemoryJson() {
    benchmark::BenchmarkReporter::Context::executable_name = "elsbench";
    reporter_.SetOutputStream(&out_);
    reporter_.SetErrorStream(&err_);
  }
  benchmark::JSONReporter& reporter() { return reporter_; }
  json document() const { return json::parse(out_.str()); }

 private:
  std::ostringstream out_, err_;
  benchmark::JSONReporter reporter_;
};

// One Google Benchmark run of `repetitions` repetitions: its entries.
json run_repetitions(const std::string& name, int repetitions, const std::function<double()>& price_once) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(),
                               [&price_once](benchmark::State& state) {
                                 for (auto _ : state) {
                                   try {
                                     state.SetIterationTime(price_once());
                                   } catch (...) {
                                     state.SkipWithError(skip_reason(std::current_exception()).c_str());
                                     break;
                                   }
                                 }
                               })
      ->Repetitions(repetitions)
      ->Iterations(1)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->ComputeStatistics("min", minimum);
  InMemoryJson json_out;
  benchmark::RunSpecifiedBenchmarks(&json_out.reporter());
  benchmark::ClearRegisteredBenchmarks();
  return json_out.document().at("benchmarks");
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double stddev_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::vector<double> times(const json& iterations, const char* key) {
  std::vector<double> v;
  for (const auto& e : iterations) v.push_back(e.value(key, 0.0));
  return v;
}

// Google Benchmark's aggregates over every repetition of every run, in its own layout (the first
// run's aggregate entries as the template).
json aggregates(const json& iterations, const json& first_run) {
  json out = json::array();
  for (json a : first_run) {
    if (a.value("run_type", "") != "aggregate") continue;
    const std::string stat = a.value("aggregate_name", "");
    for (const char* key : {"real_time", "cpu_time"}) {
      const std::vector<double> v = times(iterations, key);
      if (stat == "mean") a[key] = mean_of(v);
      else if (stat == "median") a[key] = median_of(v);
      else if (stat == "stddev") a[key] = stddev_of(v);
      else if (stat == "cv") a[key] = mean_of(v) > 0 ? stddev_of(v) / mean_of(v) : 0.0;
      else if (stat == "min") a[key] = minimum(v);
    }
    a["repetitions"] = iterations.size();
    out.push_back(a);
  }
  return out;
}

bool failed(const json& entries) {
  return std::any_of(entries.begin(), entries.end(), [](const json& e) { return e.value("error_occurred", false); });
}

}  // namespace

double median_interval(const std::vector<double>& seconds) {
  if (seconds.size() < 2) return 0;
  const double median = median_of(seconds);
  if (median <= 0) return 0;
  return 1.96 * 1.2533 * stddev_of(seconds) / std::sqrt(static_cast<double>(seconds.size())) / median;
}

Timings time_case(const std::string& name, const TimingRule& rule, const std::function<double()>& price_once) {
  Timings t;
  const json first = run_repetitions(name, rule.min_repetitions, price_once);
  json iterations = json::array();
  for (const auto& e : first)
    if (e.value("run_type", "iteration") == "iteration") iterations.push_back(e);
  if (failed(first) || rule.target <= 0) {
    t.entries = first;
    t.repetitions = static_cast<int>(iterations.size());
    t.median_interval = median_interval(times(iterations, "real_time"));
    t.stopped_by = failed(first) ? "error" : "fixed";
    return t;
  }
  while (true) {
    const std::vector<double> ms = times(iterations, "real_time");
    t.median_interval = median_interval(ms);
    const double spent = std::accumulate(ms.begin(), ms.end(), 0.0) / 1e3;
    const int n = static_cast<int>(ms.size());
    if (t.median_interval <= rule.target) t.stopped_by = "target met";
    else if (n >= rule.max_repetitions) t.stopped_by = "max repetitions";
    else if (spent >= rule.max_seconds) t.stopped_by = "time limit";
    if (!t.stopped_by.empty()) break;
    // As many again, within the repetition and time limits: the interval narrows as 1/sqrt(n).
    const double each = spent / n;
    const int affordable = each > 0 ? static_cast<int>((rule.max_seconds - spent) / each) + 1 : n;
    const int more = std::max(1, std::min({n, rule.max_repetitions - n, affordable}));
    const json next = run_repetitions(name, more, price_once);
    if (failed(next)) {  // as a first run's error: the entries without aggregates, the case skipped
      t.entries = iterations;
      for (const auto& e : next) t.entries.push_back(e);
      t.repetitions = n;
      t.stopped_by = "error";
      return t;
    }
    for (json e : next) {
      if (e.value("run_type", "iteration") != "iteration") continue;
      e["repetition_index"] = iterations.size();
      e["repetitions"] = n + more;
      iterations.push_back(e);
    }
  }
  t.repetitions = static_cast<int>(iterations.size());
  t.entries = iterations;
  for (const auto& a : aggregates(iterations, first)) t.entries.push_back(a);
  return t;
}

json benchmark_context() {
  InMemoryJson json_out;
  json_out.reporter().ReportContext(benchmark::BenchmarkReporter::Context());
  json_out.reporter().Finalize();
  return json_out.document().at("context");
}

}  // namespace elsbench
