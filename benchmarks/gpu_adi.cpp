// GPU ADI benchmarks (Google Benchmark, manual time from CUDA events):
//   march/<variant>/<precision>/<scheme>/n:<n>     the march alone (run_march)
//   end_to_end/<variant>/sample_els_200x200x1000   a whole pricing through the registry (run_end_to_end)
// Without a GPU it says so and exits 0; on any other CUDA failure, under ELSBENCH_REQUIRE_GPU=1
// without a GPU (platform/gpu_gate.hpp), or when a case throws (Google Benchmark reports it as an
// error), it exits 1, naming every failed case at the end. ELSBENCH_CUDA_DEVICE=i benchmarks cuda:i
// (CUDA's numbering; default 0).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "platform/cuda_devices.hpp"
#include "platform/gpu_gate.hpp"
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

std::vector<std::string> g_failures;  // "<case>: <error>", for the exit status

int benchmark_device() {
  const char* v = std::getenv("ELSBENCH_CUDA_DEVICE");
  return v ? std::atoi(v) : 0;
}

void fail_case(benchmark::State& state, const std::string& name, const std::exception& e) {
  g_failures.push_back(name + ": " + e.what());
  state.SkipWithError(e.what());
}

// Bytes per second the device's memory can move: clock x bus width x 2 (double data rate).
double peak_bandwidth(const GpuInfo& g) {
  return static_cast<double>(g.memory_clock_mhz) * 1e6 * 2.0 * static_cast<double>(g.bus_width_bits) / 8.0;
}

// The sample ELS on an n x n grid (2 layers), kGridSteps steps: time per step, grid values per
// second, the bandwidth implied by the adi-cuda traffic model (solvers/gpu/plan/gpu_plan.hpp), and
// x_floor, the measured time over the floor (64 bytes per value per step in fp64, 32 in
// fp32, at the GPU's peak bandwidth): 1.0 would be the floor, 2.0 "within 2x".
void run_march(benchmark::State& state, const MarchCase& c, const std::string& name) {
  try {
    const Product product = resolve_product("sample-2a-stepdown");
    GridOptions g;
    g.n = c.n;
    g.nt = kGridSteps;
    const Problem pb = build_problem(product, g, c.variant->stepping);
    GpuMarchSession session(c.variant->gpu, pb, adi_scheme(c.scheme), benchmark_device(), c.precision);
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
    state.counters["measured_device_MB"] = static_cast<double>(session.measured_device_bytes()) * 1e-6;
    state.SetLabel(session.device().name);
  } catch (const std::exception& e) {
    fail_case(state, name, e);
  }
}

// Problem set-up, upload, graph capture, march, download and greeks: wall time.
void run_end_to_end(benchmark::State& state, const SolverInfo& solver, const std::string& name) {
  try {
    const Product product = resolve_product("sample-2a-stepdown");
    SolverOptions o;
    o.grid.n = 200;
    o.grid.nt = 1000;
    o.device = parse_device("cuda:" + std::to_string(benchmark_device()));
    price_with(solver, product, o);  // warm-up: CUDA context, module loading
    for (auto _ : state) {
      const PriceResult r = price_with(solver, product, o);
      benchmark::DoNotOptimize(r.price);
      state.counters["price"] = r.price;
    }
  } catch (const std::exception& e) {
    fail_case(state, name, e);
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
          benchmark::RegisterBenchmark(name.c_str(), [c, name](benchmark::State& s) { run_march(s, c, name); })
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
        }
      }
  for (const SolverInfo* v : variants) {
    const std::string name = "end_to_end/" + v->name + "/sample_els_200x200x1000";
    benchmark::RegisterBenchmark(name.c_str(), [v, name](benchmark::State& s) { run_end_to_end(s, *v, name); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace elsbench

int main(int argc, char** argv) {
  const int code = elsbench::gpu_gate_exit_code("gpu_adi", 0);
  if (code >= 0) return code;
  benchmark::Initialize(&argc, argv);
  elsbench::register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const std::string& f : elsbench::g_failures) std::cerr << "gpu_adi: FAILED " << f << "\n";
  return elsbench::g_failures.empty() ? 0 : 1;
}
