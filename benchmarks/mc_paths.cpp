// Paths per second of the Monte Carlo reference engine on the sample ELS (756 daily steps, two
// assets), per CPU thread count, and on the first CUDA device when there is one.
//   build-mc/mc_paths --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <ctime>
#include <iostream>

#include "platform/cuda_devices.hpp"
#include "platform/gpu_gate.hpp"
#include "products/catalog.hpp"
#include "reference/monte_carlo.hpp"
#ifdef ELSBENCH_HAVE_CUDA
#include "reference/cuda/monte_carlo_cuda.hpp"
#endif

namespace {

using namespace elsbench;

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void report(benchmark::State& state, std::int64_t paths, int threads) {
  const auto done = static_cast<double>(state.iterations()) * static_cast<double>(paths);
  state.counters["paths/s"] = benchmark::Counter(done, benchmark::Counter::kIsRate);
  state.counters["paths/s/thread"] = benchmark::Counter(done / threads, benchmark::Counter::kIsRate);
}

// paths/s is wall-clock; paths per CPU-second (all threads) is what a core delivers even on a
// machine shared with other work, where wall-clock rates understate it.
void cpu_sample_els(benchmark::State& state) {
  const Product product = resolve_product("sample-2a-stepdown");
  McOptions o;
  o.paths = 200000;
  o.threads = static_cast<int>(state.range(0));
  double cpu = 0;
  for (auto _ : state) {
    const double c0 = process_cpu_seconds();
    benchmark::DoNotOptimize(monte_carlo_price(product, o).price);
    cpu += process_cpu_seconds() - c0;
  }
  report(state, o.paths, o.threads);
  state.counters["paths/cpu-s"] = static_cast<double>(state.iterations()) * static_cast<double>(o.paths) / cpu;
  state.SetLabel(monte_carlo_uses_avx2() ? "avx2" : "baseline x86-64");
}
BENCHMARK(cpu_sample_els)->Arg(1)->Arg(2)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();

#ifdef ELSBENCH_HAVE_CUDA
void cuda_sample_els(benchmark::State& state) {
  // No GPU: skipped (an error line in the output); with ELSBENCH_REQUIRE_GPU=1 or a broken CUDA
  // the whole run fails (main() below).
  const CudaProbe probe = probe_cuda();
  if (probe.presence != CudaPresence::Devices) {
    state.SkipWithError(probe.reason.c_str());
    return;
  }
  const Product product = resolve_product("sample-2a-stepdown");
  McOptions o;
  o.paths = 20'000'000;
  for (auto _ : state) benchmark::DoNotOptimize(monte_carlo_price_cuda(product, o, 0).price);
  report(state, o.paths, 1);
}
BENCHMARK(cuda_sample_els)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

// The CPU benchmarks run on any machine; a broken CUDA (or no GPU under ELSBENCH_REQUIRE_GPU=1)
// fails the run before any of them.
int main(int argc, char** argv) {
  const elsbench::GpuGateDecision d = elsbench::gpu_gate(elsbench::probe_cuda(), elsbench::gpu_required());
  if (d.gate == elsbench::GpuGate::Fail) {
    std::cerr << "mc_paths: FAILED: " << d.reason << "\n";
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
