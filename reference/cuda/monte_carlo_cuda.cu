// The Monte Carlo engine on a CUDA device: one thread per antithetic pair, cuRAND Philox streams
// keyed by (seed, pair). The dates and step coefficients come from the host's PathPlan; what a
// path pays (autocall, redemption at maturity, the option payoffs) is products/payoff.hpp, the
// same functions the CPU engine and the PDE builder call; device memory and error checks are
// platform/cuda's. The tests check its prices against the CPU engine's.
#include "reference/cuda/monte_carlo_cuda.hpp"

#include <cuda_runtime.h>
#include <curand_kernel.h>

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
#include "reference/path_plan.hpp"

namespace elsbench {
namespace {

constexpr int kThreadsPerBlock = 128;

// What a device thread reads: the plan's per-date arrays (device pointers) and the product's
// payoff terms.
struct DevicePlan {
  int dim = 0, steps = 0;
  const double* drift = nullptr;        // [step][asset]
  const double* shock = nullptr;        // [step][asset][asset]
  const double* bridge_rate = nullptr;  // [step][asset]
  const double* discount = nullptr;     // [step]
  const int* autocall = nullptr;        // [step]
  const unsigned char* monitored = nullptr;
  double start[kMaxAssets] = {};
  double log_barrier = 0;
  bool continuous = false, starts_knocked_in = false, antithetic = true;
  PayoffTerms terms;
};

struct PathState {
  double x[kMaxAssets];  // log(S / reference)
  double survival;       // probability of not having knocked in
  double payoff;         // discounted, once redeemed
  bool done;
};

// Spots S_a = reference_a exp(x_a), with room for three assets whatever D is.
template <int D>
__device__ void spots_of(const DevicePlan& p, const double* x, double* s) {
#pragma unroll
  for (int a = 0; a < D; ++a) s[a] = p.terms.reference[a] * exp(x[a]);
}

// The redemption is linear in the knock-in indicator: a survival probability q pays
// q * (amount if not knocked in) + (1 - q) * (amount if knocked in), as the CPU engine pays it.
template <int D>
__device__ double maturity_payoff(const DevicePlan& p, const PathState& st) {
  double s[kMaxAssets] = {};
  spots_of<D>(p, st.x, s);
  if (p.terms.type != ProductType::StepdownEls) return option_payoff(p.terms, s);
  const double perf = performance(p.terms, s), q = st.survival;
  return q * maturity_amount(p.terms, perf, false) + (1.0 - q) * maturity_amount(p.terms, perf, true);
}

template <int D>
__device__ bool autocalled(const DevicePlan& p, int date, const double* x) {
  double s[kMaxAssets] = {};
  spots_of<D>(p, x, s);
  return autocalls(p.terms, date, performance(p.terms, s));
}

template <int D>
__device__ void knock_in_observation(const DevicePlan& p, PathState& s) {
  double lo = s.x[0], hi = s.x[0];
#pragma unroll
  for (int a = 1; a < D; ++a) {
    lo = fmin(lo, s.x[a]);
    hi = fmax(hi, s.x[a]);
  }
  if ((p.terms.worst_of ? lo : hi) < p.log_barrier) s.survival = 0.0;
}

template <int D>
__device__ void bridge_crossing(const DevicePlan& p, int step, const double* before, PathState& s) {
  double no_cross_all = 1.0, min_cross = 1.0;
#pragma unroll
  for (int a = 0; a < D; ++a) {
    const double d0 = before[a] - p.log_barrier, d1 = s.x[a] - p.log_barrier;
    const double cross = (d0 > 0 && d1 > 0) ? exp(-d0 * d1 * p.bridge_rate[step * D + a]) : 1.0;
    no_cross_all *= 1.0 - cross;
    min_cross = fmin(min_cross, cross);
  }
  s.survival *= p.terms.worst_of ? no_cross_all : 1.0 - min_cross;
}

template <int D>
__device__ void draw_normals(curandStatePhilox4_32_10_t& rng, double* z) {
#pragma unroll
  for (int a = 0; a < D; a += 2) {
    const double2 pair = curand_normal2_double(&rng);
    z[a] = pair.x;
    if (a + 1 < D) z[a + 1] = pair.y;
  }
}

// Discounted payoffs of the two paths of one pair.
template <int D>
__device__ double pair_average(const DevicePlan& p, unsigned long long seed, unsigned long long pair) {
  curandStatePhilox4_32_10_t rng;
  curand_init(seed, pair, 0, &rng);
  PathState path[2];
  for (auto& s : path) {
    for (int a = 0; a < D; ++a) s.x[a] = p.start[a];
    s.survival = p.starts_knocked_in ? 0.0 : 1.0;
    s.payoff = 0;
    s.done = false;
  }
  for (int step = 0; step < p.steps && !(path[0].done && path[1].done); ++step) {
    double z[2][kMaxAssets];
    draw_normals<D>(rng, z[0]);
    if (p.antithetic)
      for (int a = 0; a < D; ++a) z[1][a] = -z[0][a];
    else
      draw_normals<D>(rng, z[1]);
    for (int m = 0; m < 2; ++m) {
      PathState& s = path[m];
      double before[kMaxAssets];
      for (int a = 0; a < D; ++a) before[a] = s.x[a];
      for (int a = 0; a < D; ++a) {
        double y = 0;
        for (int b = 0; b <= a; ++b) y += p.shock[(step * D + a) * D + b] * z[m][b];
        s.x[a] += p.drift[step * D + a] + y;
      }
      if (s.done) continue;
      if (p.monitored[step]) knock_in_observation<D>(p, s);
      if (p.continuous) bridge_crossing<D>(p, step, before, s);
      const int k = p.autocall[step];
      if (k >= 0 && step + 1 < p.steps && autocalled<D>(p, k, s.x)) {
        s.payoff = p.discount[step] * autocall_amount(p.terms, k);
        s.done = true;
      }
    }
  }
  for (auto& s : path)
    if (!s.done) s.payoff = p.discount[p.steps - 1] * maturity_payoff<D>(p, s);
  return 0.5 * (path[0].payoff + path[1].payoff);
}

// Each block writes the sum and the sum of squares of its pairs' averages (a fixed tree order, so
// a launch is reproducible); the host adds the blocks in order.
template <int D>
__global__ void simulate_pairs(DevicePlan plan, unsigned long long seed, long long pairs, double shift,
                               double* block_sum, double* block_sum_sq) {
  __shared__ double sum[kThreadsPerBlock], sum_sq[kThreadsPerBlock];
  double s = 0, s2 = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long pair = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; pair < pairs; pair += stride) {
    const double y = pair_average<D>(plan, seed, static_cast<unsigned long long>(pair)) - shift;
    s += y;
    s2 += y * y;
  }
  sum[threadIdx.x] = s;
  sum_sq[threadIdx.x] = s2;
  __syncthreads();
  for (int half = kThreadsPerBlock / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) {
      sum[threadIdx.x] += sum[threadIdx.x + half];
      sum_sq[threadIdx.x] += sum_sq[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    block_sum[blockIdx.x] = sum[0];
    block_sum_sq[blockIdx.x] = sum_sq[0];
  }
}

DevicePlan flatten(const Product& product, const PathPlan& plan, bool antithetic) {
  DevicePlan d;
  d.dim = plan.dim;
  d.steps = plan.steps;
  for (int a = 0; a < plan.dim; ++a) d.start[a] = plan.start[static_cast<std::size_t>(a)];
  d.log_barrier = plan.log_barrier;
  d.continuous = plan.continuous;
  d.starts_knocked_in = plan.starts_knocked_in;
  d.antithetic = antithetic;
  d.terms = payoff_terms(product);
  return d;
}

}  // namespace

std::string cuda_mc_generator_name(bool antithetic) {
  return std::string("curand-philox4_32_10/normal2-double") + (antithetic ? " antithetic" : " plain");
}

McResult monte_carlo_price_cuda(const Product& product, const McOptions& options, int device) {
  if (options.paths < 2) throw std::invalid_argument("Monte Carlo needs at least 2 paths");
  if (product.dimension() > kMaxAssets) throw std::invalid_argument("Monte Carlo supports 1 to 3 underlyings");
  const auto t0 = std::chrono::steady_clock::now();
  const gpu::DeviceGuard on(device);  // the caller's current device is given back on return
  const PathPlan plan = make_path_plan(product);
  DevicePlan d = flatten(product, plan, options.antithetic);
  gpu::DeviceAllocator alloc;
  const auto upload = [&alloc](const auto& host, const char* what) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    gpu::DeviceArray<T> a(alloc, host.size(), what);
    a.upload(host, what);
    return a;
  };
  const auto drift = upload(plan.drift, "drift"), shock = upload(plan.shock, "shocks");
  const auto bridge = upload(plan.bridge_rate, "bridge rates"), discount = upload(plan.discount, "discounts");
  const auto autocall = upload(plan.autocall, "autocall dates");
  const auto monitored = upload(plan.monitored, "monitoring dates");
  d.drift = drift.data();
  d.shock = shock.data();
  d.bridge_rate = bridge.data();
  d.discount = discount.data();
  d.autocall = autocall.data();
  d.monitored = monitored.data();

  int sms = 0;
  gpu::cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  const long long pairs = (options.paths + 1) / 2;
  const long long wanted = (pairs + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int blocks = static_cast<int>(std::max(1LL, std::min<long long>(wanted, 16LL * sms)));
  const gpu::DeviceArray<double> block_sum(alloc, static_cast<std::size_t>(blocks), "block sums");
  const gpu::DeviceArray<double> block_sum_sq(alloc, static_cast<std::size_t>(blocks), "block sums of squares");
  // Sums of squares around a rough level keep the variance free of cancellation.
  const double shift = product.is_els() ? product.notional : 0.0;
  switch (d.dim) {
    case 1: simulate_pairs<1><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.data(), block_sum_sq.data()); break;
    case 2: simulate_pairs<2><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.data(), block_sum_sq.data()); break;
    default: simulate_pairs<3><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.data(), block_sum_sq.data()); break;
  }
  gpu::check_launch("simulate_pairs");
  const std::vector<double> sums = block_sum.download(static_cast<std::size_t>(blocks));
  const std::vector<double> sums_sq = block_sum_sq.download(static_cast<std::size_t>(blocks));

  double s = 0, s2 = 0;
  for (std::size_t b = 0; b < sums.size(); ++b) {
    s += sums[b];
    s2 += sums_sq[b];
  }
  const auto n = static_cast<double>(pairs);
  const double mean = s / n;
  const double variance = n > 1 ? std::max(0.0, (s2 - n * mean * mean) / (n - 1)) : 0.0;
  McResult r;
  r.price = shift + mean;
  r.std_error = std::sqrt(variance / n);
  r.paths = 2 * pairs;
  r.seed = options.seed;
  r.threads = blocks * kThreadsPerBlock;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.generator = cuda_mc_generator_name(options.antithetic);
  r.generator_version = kMcGeneratorVersion;
  r.device = "cuda:" + std::to_string(device);
  r.peak_device_bytes = alloc.peak();
  return require_finite(r);
}

}  // namespace elsbench
