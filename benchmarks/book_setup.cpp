// The host set-up of a GPU book march, per note, with no device: each note's problem (mesh,
// operators, payoff, events, time grid), the batch plan and the batch image that the on-chip march
// uploads (solvers/adi_cuda/adi_cuda_book.cpp: event weights per axis). Issue 45's target: at most
// 0.2 ms a note for the 1,000-note two-asset book at n = 100. Apart: the payoffs' staging, note by
// note on one thread, that the upload does (for_each_note_payoff; the driver's copies not included).
//   OMP_WAIT_POLICY=passive build/book_setup --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <chrono>

#include "products/book_generator.hpp"
#include "solvers/contract/solver.hpp"
#include "solvers/gpu/plan/batch_image.hpp"
#include "solvers/gpu/plan/gpu_batch.hpp"
#include "solvers/problem/problem_builder.hpp"
#include "solvers/schemes/adi_scheme.hpp"

namespace {

using namespace elsbench;

GridOptions grid(int n) {
  GridOptions g;
  g.n = n;
  return g;
}

// args: notes, n.
void book_setup(benchmark::State& state) {
  const auto notes = static_cast<int>(state.range(0));
  const int n = static_cast<int>(state.range(1));
  const std::vector<Product> book = generate_book({notes, 2, 1});
  std::vector<const Product*> notes_of;
  for (const Product& p : book) notes_of.push_back(&p);
  const TimeStepping stepping = SolverRegistry::instance().get("adi").stepping;
  const AdiScheme scheme = adi_scheme("hundsdorfer-verwer");
  double problems_s = 0, plan_s = 0, image_s = 0, staging_s = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<Problem> problems = build_problems(notes_of, grid(n), stepping);
    auto t1 = std::chrono::steady_clock::now();
    const std::vector<const Problem*> batch = pointers_to(problems);
    const gpu::GpuBatchPlan plan = gpu::make_gpu_batch_plan(batch, scheme, sizeof(double));
    auto t2 = std::chrono::steady_clock::now();
    const gpu::BatchImage<double> image = gpu::make_batch_image<double>(batch, plan, gpu::EventWeights::PerAxis);
    auto t3 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(image.constants.data());
    double sink = 0;
    gpu::for_each_note_payoff(
        batch, plan, image, [&](std::size_t, long long, const double* payoff, std::size_t) { sink += payoff[0]; },
        [&](std::size_t, long long, const gpu::GpuStep* steps, std::size_t) { sink += steps[0].w.dt; });
    benchmark::DoNotOptimize(sink);
    auto t4 = std::chrono::steady_clock::now();
    problems_s += std::chrono::duration<double>(t1 - t0).count();
    plan_s += std::chrono::duration<double>(t2 - t1).count();
    image_s += std::chrono::duration<double>(t3 - t2).count();
    staging_s += std::chrono::duration<double>(t4 - t3).count();
  }
  const double per_note = 1e3 / (static_cast<double>(state.iterations()) * notes);
  state.counters["problems_ms_per_note"] = problems_s * per_note;
  state.counters["plan_ms_per_note"] = plan_s * per_note;
  state.counters["image_ms_per_note"] = image_s * per_note;
  state.counters["host_ms_per_note"] = (problems_s + plan_s + image_s) * per_note;
  state.counters["upload_staging_ms_per_note"] = staging_s * per_note;
}
BENCHMARK(book_setup)->Args({64, 100})->Args({1000, 100})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
