// CPU ADI throughput: seconds per pricing and nanoseconds per grid point per time step (points
// counted per layer and layer: a knock-in note marches two layers). Issue targets:
//   min call 400x400, 400 steps, Hundsdorfer-Verwer, one thread (QuantLib 1.29: about 30 s);
//   sample ELS 200x200, 1000 steps (Python prototype: 71 s).
//   build/adi_cpu --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"

namespace {

using namespace elsbench;

void price_case(benchmark::State& state, const char* product_id, int n, int nt, int threads, const char* scheme) {
  const Product product = resolve_product(product_id);
  SolverOptions o;
  o.scheme = scheme;
  o.grid.n = n;
  o.grid.nt = nt;
  o.device = parse_device("cpu");
  o.device.threads = threads;
  const SolverInfo& adi = SolverRegistry::instance().get("adi");
  PriceResult r;
  double seconds = 0.0;
  for (auto _ : state) {
    r = price_with(adi, product, o);
    state.SetIterationTime(r.seconds);
    seconds += r.seconds;
  }
  const double layers = product.is_els() && product.els.knock_in.monitoring != Monitoring::None ? 2.0 : 1.0;
  const double point_steps = static_cast<double>(r.grid_points()) * layers * static_cast<double>(r.time_steps);
  state.counters["price"] = r.price;
  state.counters["time_steps"] = static_cast<double>(r.time_steps);
  // A plain value: Google Benchmark would print an inverted rate in seconds.
  state.counters["ns_per_point_step"] = seconds * 1e9 / (point_steps * static_cast<double>(state.iterations()));
  state.counters["peak_host_MiB"] = static_cast<double>(r.peak_host_bytes) / (1024.0 * 1024.0);
}

void min_call(benchmark::State& s) { price_case(s, "min-call", static_cast<int>(s.range(0)), static_cast<int>(s.range(0)), static_cast<int>(s.range(1)), "hundsdorfer-verwer"); }
void sample_els(benchmark::State& s) { price_case(s, "sample-2a-stepdown", 200, 1000, static_cast<int>(s.range(0)), "hundsdorfer-verwer"); }

}  // namespace

BENCHMARK(min_call)->Args({400, 1})->Args({400, 2})->Args({200, 1})->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(sample_els)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
