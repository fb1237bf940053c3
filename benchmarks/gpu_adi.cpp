// GPU ADI benchmarks (Google Benchmark, manual time from CUDA events):
//   march/<variant>/<precision>/<scheme>/n:<n>  the sample ELS on an n x n grid (2 layers),
//       kGridSteps steps; reports time per step, grid values per second, the bandwidth implied by
//       the adi-cuda traffic model (solvers/gpu/plan/gpu_plan.hpp) and the ratio of the measured time to
//       the floor (64 bytes per value per step in fp64, 32 in fp32, at the GPU's peak
//       bandwidth: 1.0 would be the floor, 2.0 "within 2x").
//   end_to_end/<variant>/sample_els_200x200x1000  a whole pricing through the registry (problem
//       set-up, upload, graph capture, march, download, greeks), wall time.
// Without a CUDA device it says so and exits 0.
#include <benchmark/benchmark.h>

#include <iostream>
#include <string>
#include <vector>

#include "platform/cuda_devices.hpp"
#include "platform/solver_error.hpp"
#include "products/catalog.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/gpu/session.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

constexpr int kGridSteps = 100;
const int kSizes[] = {100, 200, 400, 1000, 2000};

struct MarchCase {
  const SolverInfo* variant;
  Precision precision;
  std::string scheme;
  int n;
};

// Bytes per second the device's memory can move: clock x bus width x 2 (double data rate).
double peak_bandwidth(const GpuInfo& g) {
  return static_cast<double>(g.memory_clock_mhz) * 1e6 * 2.0 * static_cast<double>(g.bus_width_bits) / 8.0;
}

void run_march(benchmark::State& state, const MarchCase& c) {
  try {
    const Product product = resolve_product("sample-2a-stepdown");
    GridOptions g;
    g.n = c.n;
    g.nt = kGridSteps;
    const Problem pb = build_problem(product, g, c.variant->stepping);
    GpuMarchSession session(c.variant->gpu, pb, adi_scheme(c.scheme), 0, c.precision);
    session.march();  // warm-up: first launches, caches, clocks
    double seconds = 0;
    for (auto _ : state) {
      const double t = session.march();
      state.SetIterationTime(t);
      seconds += t;
    }
    const auto iterations = static_cast<double>(state.iterations());
    const double per_march = seconds / iterations;
    const double steps = static_cast<double>(pb.time.steps());
    const double values = static_cast<double>(pb.values());
    const std::size_t elem = c.precision == Precision::FP64 ? 8 : 4;
    const double modelled = gpu::march_bytes(session.plan(), elem);
    const double floor_time = gpu::floor_bytes_per_value(elem) * values * steps / peak_bandwidth(session.device());
    state.counters["us_per_step"] = per_march / steps * 1e6;
    state.counters["values_per_s"] = values * steps / per_march;
    state.counters["model_GBps"] = modelled / per_march * 1e-9;
    state.counters["model_B_per_value_step"] = modelled / (values * steps);
    state.counters["x_floor"] = per_march / floor_time;
    state.counters["peak_device_MB"] = static_cast<double>(session.peak_device_bytes()) * 1e-6;
    state.SetLabel(session.device().name);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void run_end_to_end(benchmark::State& state, const SolverInfo& solver) {
  try {
    const Product product = resolve_product("sample-2a-stepdown");
    SolverOptions o;
    o.grid.n = 200;
    o.grid.nt = 1000;
    o.device = parse_device("cuda:0");
    price_with(solver, product, o);  // warm-up: CUDA context, module loading
    for (auto _ : state) {
      const PriceResult r = price_with(solver, product, o);
      benchmark::DoNotOptimize(r.price);
      state.counters["price"] = r.price;
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  // Every registered GPU variant (those that declare a backend), Douglas on adi-cuda only.
  std::vector<const SolverInfo*> variants;
  for (const SolverInfo& s : SolverRegistry::instance().all())
    if (s.gpu && !s.test_only) variants.push_back(&s);
  for (const SolverInfo* v : variants)
    for (Precision p : {Precision::FP64, Precision::FP32})
      for (const char* scheme : {"hundsdorfer-verwer", "douglas"}) {
        if (v->name != "adi-cuda" && std::string(scheme) == "douglas") continue;
        for (int n : kSizes) {
          const MarchCase c{v, p, scheme, n};
          const std::string name = "march/" + v->name + "/" + to_string(p) + "/" + scheme + "/n:" + std::to_string(n);
          benchmark::RegisterBenchmark(name.c_str(), [c](benchmark::State& s) { run_march(s, c); })
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
        }
      }
  for (const SolverInfo* v : variants) {
    const std::string name = "end_to_end/" + v->name + "/sample_els_200x200x1000";
    benchmark::RegisterBenchmark(name.c_str(), [v](benchmark::State& s) { run_end_to_end(s, *v); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace elsbench

int main(int argc, char** argv) {
  std::string why;
  if (elsbench::cuda_devices(&why).empty()) {
    std::cout << "gpu_adi: no CUDA device (" << why << "): nothing to benchmark\n";
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  elsbench::register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
