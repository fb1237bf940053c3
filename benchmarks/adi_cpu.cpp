// CPU ADI throughput: seconds per pricing and nanoseconds per grid point per time step (points
// counted per layer: a knock-in note marches two). The cases: the min call 400x400 against
// QuantLib (quantlib_min_call), the sample ELS 200x200x1000, the 3-asset ELS, and the cost per
// point-step as n grows; their figures and commands are in docs/performance.md, CPU ADI.
// A precision argument is 64, 32, or 6432 for mixed (fp64 values, fp32 steps).
//   build/adi_cpu --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//   OMP_WAIT_POLICY=passive build/adi_cpu --benchmark_filter=point_cost --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "products/catalog.hpp"
#include "solvers/contract/memory_model.hpp"
#include "solvers/contract/solver.hpp"

namespace {

using namespace elsbench;

SolverOptions options(int n, int nt, int threads, Precision precision, int knock_in_damping = 2) {
  SolverOptions o;
  o.scheme = "hundsdorfer-verwer";
  o.grid.n = n;
  o.grid.nt = nt;
  o.grid.knock_in_damping = knock_in_damping;
  o.device = parse_device("cpu");
  o.device.threads = threads;
  o.precision = precision;
  return o;
}

void price_case(benchmark::State& state, const char* product_id, const SolverOptions& o) {
  const Product product = resolve_product(product_id);
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  PriceResult r;
  double seconds = 0.0;
  for (auto _ : state) {
    r = price_with(adi, product, o);
    state.SetIterationTime(r.seconds);
    seconds += r.seconds;
  }
  const double point_steps = static_cast<double>(r.grid_points()) * grid_load(product).layers * static_cast<double>(r.time_steps);
  state.counters["price"] = r.price;
  state.counters["time_steps"] = static_cast<double>(r.time_steps);
  // A plain value: Google Benchmark would print an inverted rate in seconds.
  state.counters["ns_per_point_step"] = seconds * 1e9 / (point_steps * static_cast<double>(state.iterations()));
  state.counters["peak_host_MiB"] = static_cast<double>(r.peak_host_bytes) / (1024.0 * 1024.0);
}

Precision precision_of(std::int64_t arg) {
  return arg == 32 ? Precision::FP32 : arg == 6432 ? Precision::Mixed : Precision::FP64;
}

// args: n, threads, precision
void min_call(benchmark::State& s) {
  const int n = static_cast<int>(s.range(0));
  price_case(s, "min-call", options(n, n, static_cast<int>(s.range(1)), precision_of(s.range(2))));
}
// args: threads, precision; 1000 steps without the knock-in sub-steps (the prototype's steps)
void sample_els(benchmark::State& s) {
  price_case(s, "sample-2a-stepdown", options(200, 1000, static_cast<int>(s.range(0)), precision_of(s.range(1)), 0));
}

// args: n, threads, precision; the default time grid (one step a day, knock-in sub-steps),
// one iteration: several seconds a pricing
void els_3a(benchmark::State& s) {
  SolverOptions o = options(static_cast<int>(s.range(0)), 1, static_cast<int>(s.range(1)), precision_of(s.range(2)));
  o.grid.nt.reset();
  price_case(s, "els-3a-stepdown", o);
}

// One thread: (t(3 k) - t(k)) / (2 k n^2) with k steps chosen so that a pricing takes about 0.1-1 s;
// the set-up cancels in the difference. args: n, precision
void point_cost(benchmark::State& s) {
  const int n = static_cast<int>(s.range(0));
  const int k = std::max(10, 16'000'000 / (n * n));
  const Product product = resolve_product("min-call");
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  const Precision p = precision_of(s.range(1));
  double step_seconds = 0.0;
  for (auto _ : s) {
    const double shorter = price_with(adi, product, options(n, k, 1, p)).seconds;
    const double longer = price_with(adi, product, options(n, 3 * k, 1, p)).seconds;
    s.SetIterationTime(longer - shorter);
    step_seconds += longer - shorter;
  }
  s.counters["ns_per_point_step"] =
      step_seconds * 1e9 / (2.0 * k * static_cast<double>(n) * n * static_cast<double>(s.iterations()));
}

}  // namespace

BENCHMARK(min_call)
    ->Args({400, 1, 64})->Args({400, 2, 64})->Args({200, 1, 64})->Args({400, 1, 32})->Args({400, 1, 6432})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(sample_els)
    ->ArgsProduct({{1, 2}, {64, 32, 6432}})
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(els_3a)->ArgsProduct({{48}, {1}, {64, 32, 6432}})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(point_cost)
    ->ArgsProduct({{100, 200, 400, 800, 1600}, {64, 6432}})
    ->Iterations(3)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
