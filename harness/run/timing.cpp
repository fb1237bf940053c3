#include "harness/run/timing.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <sstream>

#include "harness/placement/case_skip.hpp"

namespace elsbench {
namespace {

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
  nlohmann::json document() const { return nlohmann::json::parse(out_.str()); }

 private:
  std::ostringstream out_, err_;
  benchmark::JSONReporter reporter_;
};

}  // namespace

nlohmann::json time_case(const std::string& name, int repetitions, const std::function<double()>& price_once) {
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
  InMemoryJson json;
  benchmark::RunSpecifiedBenchmarks(&json.reporter());
  benchmark::ClearRegisteredBenchmarks();
  return json.document().at("benchmarks");
}

nlohmann::json benchmark_context() {
  InMemoryJson json;
  json.reporter().ReportContext(benchmark::BenchmarkReporter::Context());
  json.reporter().Finalize();
  return json.document().at("context");
}

}  // namespace elsbench
