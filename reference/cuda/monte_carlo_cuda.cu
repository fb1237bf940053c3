// The Monte Carlo engine on a CUDA device: one thread per antithetic pair, running
// reference/pair_path.hpp's pair_average(), the code the CPU tests run, on the host's PathPlan
// (copied to the device) with the CPU engine's Philox numbering. Each block sums its pairs'
// averages in order as the CPU engine sums a block, and the host merges the blocks in order, so a
// price is the CPU engine's to the bit (this file is compiled with -fmad=false). Device memory and
// error checks are platform/cuda's.
#include "reference/cuda/monte_carlo_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/cuda/cuda_check.hpp"
#include "platform/cuda/device_guard.hpp"
#include "platform/cuda/device_memory.hpp"
#include "products/payoff.hpp"
#include "reference/pair_path.hpp"
#include "reference/path_plan.hpp"

namespace elsbench {
namespace {

constexpr int kThreadsPerBlock = mc::kPairsPerBlock;  // a CUDA block is a CPU engine block of pairs
constexpr long long kBlocksPerLaunch = 1 << 20;       // bounds the moments buffer: 24 MiB

// Block b of a launch holds pairs first_pair + b * kThreadsPerBlock + threadIdx.x; its averages are
// written (for the tests) and summed in pair order by one thread into the block's moments.
template <int D>
__global__ void simulate_pairs(mc::PlanView plan, long long first_pair, long long pairs, double* averages,
                               mc::Moments* block_moments) {
  __shared__ double average[kThreadsPerBlock];
  const long long block_first = static_cast<long long>(blockIdx.x) * kThreadsPerBlock;
  const long long i = block_first + threadIdx.x;
  if (i < pairs) {
    average[threadIdx.x] = mc::pair_average<D>(plan, static_cast<unsigned long long>(first_pair + i));
    if (averages != nullptr) averages[i] = average[threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x != 0 || block_moments == nullptr) return;
  const long long left = pairs - block_first;
  const int n = left < kThreadsPerBlock ? static_cast<int>(left) : kThreadsPerBlock;
  mc::Moments m;
  for (int s = 0; s < n; ++s) m.add(average[s]);
  block_moments[blockIdx.x] = m;
}

// The plan's arrays on the device, and the view that points at them.
class DevicePlan {
 public:
  DevicePlan(gpu::DeviceAllocator& alloc, const PathPlan& plan, const mc::PlanView& host)
      : drift_(upload(alloc, plan.drift, "drift")), shock_(upload(alloc, plan.shock, "shocks")),
        bridge_(upload(alloc, plan.bridge_rate, "bridge rates")), discount_(upload(alloc, plan.discount, "discounts")),
        events_(upload(alloc, plan.events, "events")), step_events_(upload(alloc, plan.step_events, "events by step")),
        view_(host) {
    view_.drift = drift_.data();
    view_.shock = shock_.data();
    view_.bridge_rate = bridge_.data();
    view_.discount = discount_.data();
    view_.events = events_.data();
    view_.step_events = step_events_.data();
  }
  const mc::PlanView& view() const { return view_; }

 private:
  template <class T>
  static gpu::DeviceArray<T> upload(gpu::DeviceAllocator& alloc, const std::vector<T>& host, const char* what) {
    gpu::DeviceArray<T> a(alloc, host.size(), what);
    a.upload(host, what);
    return a;
  }
  gpu::DeviceArray<double> drift_, shock_, bridge_, discount_;
  gpu::DeviceArray<PathEvent> events_;
  gpu::DeviceArray<int> step_events_;
  mc::PlanView view_;
};

void launch(int dim, int blocks, const mc::PlanView& view, long long first, long long pairs, double* averages,
            mc::Moments* moments) {
  switch (dim) {
    case 1: simulate_pairs<1><<<blocks, kThreadsPerBlock>>>(view, first, pairs, averages, moments); break;
    case 2: simulate_pairs<2><<<blocks, kThreadsPerBlock>>>(view, first, pairs, averages, moments); break;
    default: simulate_pairs<3><<<blocks, kThreadsPerBlock>>>(view, first, pairs, averages, moments); break;
  }
  gpu::check_launch("simulate_pairs");
}

void check_request(const Product& product, const McOptions& options) {
  if (options.paths < 2) throw std::invalid_argument("Monte Carlo needs at least 2 paths");
  if (product.dimension() > kMaxAssets) throw std::invalid_argument("Monte Carlo supports 1 to 3 underlyings");
}

}  // namespace

McResult monte_carlo_price_cuda(const Product& product, const McOptions& options, int device) {
  check_request(product, options);
  const auto t0 = std::chrono::steady_clock::now();
  const gpu::DeviceGuard on(device);  // the caller's current device is given back on return
  const PathPlan plan = make_path_plan(product);
  gpu::DeviceAllocator alloc;
  const DevicePlan d(alloc, plan, mc::plan_view(plan, payoff_terms(product), options.seed, options.antithetic));
  const long long pairs = (options.paths + 1) / 2;
  const long long blocks = (pairs + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const long long per_launch = std::min(blocks, kBlocksPerLaunch);
  gpu::DeviceArray<mc::Moments> moments(alloc, static_cast<std::size_t>(per_launch), "block moments");
  mc::Moments total;
  for (long long b = 0; b < blocks; b += per_launch) {
    const long long first = b * kThreadsPerBlock;
    const long long n = std::min(pairs - first, per_launch * kThreadsPerBlock);
    const int launch_blocks = static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    launch(plan.dim, launch_blocks, d.view(), first, n, nullptr, moments.data());
    for (const mc::Moments& m : moments.download(static_cast<std::size_t>(launch_blocks))) total.merge(m);
  }
  McResult r;
  r.price = total.mean;
  r.std_error = total.count > 1 ? std::sqrt(total.m2 / (total.count - 1) / total.count) : 0.0;
  r.paths = 2 * pairs;
  r.seed = options.seed;
  r.threads = static_cast<int>(std::min<long long>(pairs, per_launch * kThreadsPerBlock));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.generator = mc_generator_name(options.antithetic);
  r.generator_version = kMcGeneratorVersion;
  r.device = "cuda:" + std::to_string(device);
  r.peak_device_bytes = alloc.peak();
  return require_finite(r);
}

std::vector<double> monte_carlo_pair_averages_cuda(const Product& product, const McOptions& options,
                                                   std::uint64_t first_pair, int count, int device) {
  check_request(product, options);
  const gpu::DeviceGuard on(device);
  const PathPlan plan = make_path_plan(product);
  gpu::DeviceAllocator alloc;
  const DevicePlan d(alloc, plan, mc::plan_view(plan, payoff_terms(product), options.seed, options.antithetic));
  gpu::DeviceArray<double> averages(alloc, static_cast<std::size_t>(count), "pair averages");
  launch(plan.dim, (count + kThreadsPerBlock - 1) / kThreadsPerBlock, d.view(), static_cast<long long>(first_pair),
         count, averages.data(), nullptr);
  return averages.download(static_cast<std::size_t>(count));
}

}  // namespace elsbench
