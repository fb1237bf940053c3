// The Monte Carlo engine on a CUDA device: one thread per antithetic pair, cuRAND Philox streams
// keyed by (seed, pair). The dates and step coefficients come from the host's PathPlan, the
// amounts paid at autocall dates from products/payoff.hpp; the device code repeats only the
// comparisons of payoff.hpp that a path takes on the way (autocall, knock-in, redemption at
// maturity, the option payoffs), and the tests check its prices against the CPU engine's.
#include "reference/cuda/monte_carlo_cuda.hpp"

#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "products/payoff.hpp"
#include "reference/path_plan.hpp"

namespace elsbench {
namespace {

constexpr int kMaxAssets = 3;
constexpr int kMaxAutocalls = 64;
constexpr int kThreadsPerBlock = 128;

void check(cudaError_t err, const char* call) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("CUDA Monte Carlo: ") + call + ": " + cudaGetErrorString(err));
}

// Device copy of a host vector, freed on scope exit.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) {
    check(cudaMalloc(&data_, host.size() * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  explicit DeviceArray(std::size_t n) { check(cudaMalloc(&data_, n * sizeof(T)), "cudaMalloc"); }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
};

// What a device thread reads: the plan's per-date arrays (device pointers) and the product's
// terms flattened to numbers.
struct DevicePlan {
  int dim = 0, steps = 0;
  const double* drift = nullptr;        // [step][asset]
  const double* shock = nullptr;        // [step][asset][asset]
  const double* bridge_rate = nullptr;  // [step][asset]
  const double* discount = nullptr;     // [step]
  const int* autocall = nullptr;        // [step]
  const unsigned char* monitored = nullptr;
  double start[kMaxAssets] = {};
  double reference[kMaxAssets] = {};
  double log_barrier = 0;
  bool continuous = false, starts_knocked_in = false, worst_of = true, is_els = true, antithetic = true;
  int autocalls = 0;
  double autocall_barrier[kMaxAutocalls] = {};
  double autocall_amount[kMaxAutocalls] = {};  // notional * (1 + coupon), from payoff.hpp
  double notional = 0, dummy_amount = 0;       // redemption without knock-in
  ProductType type = ProductType::StepdownEls;
  double strike[2] = {};
  double cash = 0;
};

struct PathState {
  double x[kMaxAssets];  // log(S / reference)
  double survival;       // probability of not having knocked in
  double payoff;         // discounted, once redeemed
  bool done;
};

template <int D>
__device__ double performance_of(const DevicePlan& p, const double* x) {
  double lo = x[0], hi = x[0];
#pragma unroll
  for (int a = 1; a < D; ++a) {
    lo = fmin(lo, x[a]);
    hi = fmax(hi, x[a]);
  }
  return exp(p.worst_of ? lo : hi);
}

// payoff.hpp's option_payoff, on spots S_a = reference_a exp(x_a).
template <int D>
__device__ double option_payoff_of(const DevicePlan& p, const double* x) {
  const double s0 = p.reference[0] * exp(x[0]);
  const double s1 = D > 1 ? p.reference[1] * exp(x[1]) : 0.0;  // x has room for three assets
  const double k = p.strike[0];
  switch (p.type) {
    case ProductType::EuropeanCall: return fmax(s0 - k, 0.0);
    case ProductType::EuropeanPut: return fmax(k - s0, 0.0);
    case ProductType::MinCall: return fmax(fmin(s0, s1) - k, 0.0);
    case ProductType::MaxCall: return fmax(fmax(s0, s1) - k, 0.0);
    case ProductType::MinPut: return fmax(k - fmin(s0, s1), 0.0);
    case ProductType::MaxPut: return fmax(k - fmax(s0, s1), 0.0);
    case ProductType::Exchange: return fmax(s0 - s1, 0.0);
    case ProductType::CashOrNothing2: return (s0 > p.strike[0] && s1 > p.strike[1]) ? p.cash : 0.0;
    case ProductType::StepdownEls: break;
  }
  return 0.0;
}

// payoff.hpp's maturity_amount mixed by the survival probability (monte_carlo.hpp).
template <int D>
__device__ double maturity_payoff(const DevicePlan& p, const PathState& s) {
  if (!p.is_els) return option_payoff_of<D>(p, s.x);
  const double perf = performance_of<D>(p, s.x);
  const int last = p.autocalls - 1;
  if (perf >= p.autocall_barrier[last]) return p.autocall_amount[last];
  return s.survival * p.dummy_amount + (1.0 - s.survival) * p.notional * fmin(1.0, perf);
}

template <int D>
__device__ void knock_in_observation(const DevicePlan& p, PathState& s) {
  double lo = s.x[0], hi = s.x[0];
#pragma unroll
  for (int a = 1; a < D; ++a) {
    lo = fmin(lo, s.x[a]);
    hi = fmax(hi, s.x[a]);
  }
  if ((p.worst_of ? lo : hi) < p.log_barrier) s.survival = 0.0;
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
  s.survival *= p.worst_of ? no_cross_all : 1.0 - min_cross;
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
      if (k >= 0 && step + 1 < p.steps && performance_of<D>(p, s.x) >= p.autocall_barrier[k]) {
        s.payoff = p.discount[step] * p.autocall_amount[k];
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
  for (int a = 0; a < plan.dim; ++a) {
    d.start[a] = plan.start[static_cast<std::size_t>(a)];
    d.reference[a] = product.assets[static_cast<std::size_t>(a)].reference;
  }
  d.log_barrier = plan.log_barrier;
  d.continuous = plan.continuous;
  d.starts_knocked_in = plan.starts_knocked_in;
  d.is_els = product.is_els();
  d.worst_of = !product.is_els() || product.els.performance == Performance::WorstOf;
  d.antithetic = antithetic;
  d.type = product.type;
  if (product.is_els()) {
    if (product.els.autocall.size() > static_cast<std::size_t>(kMaxAutocalls))
      throw std::invalid_argument("CUDA Monte Carlo: more than 64 autocall dates");
    d.autocalls = static_cast<int>(product.els.autocall.size());
    for (int k = 0; k < d.autocalls; ++k) {
      const AutocallDate& date = product.els.autocall[static_cast<std::size_t>(k)];
      d.autocall_barrier[k] = date.barrier;
      d.autocall_amount[k] = autocall_amount(product, date);
    }
    d.notional = product.notional;
    // maturity_amount() of a note neither autocalled nor knocked in: no performance needed.
    d.dummy_amount = maturity_amount(product, -INFINITY, false);
  } else {
    for (std::size_t i = 0; i < product.option.strikes.size() && i < 2; ++i) d.strike[i] = product.option.strikes[i];
    d.cash = product.option.cash;
  }
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
  check(cudaSetDevice(device), "cudaSetDevice");
  const PathPlan plan = make_path_plan(product);
  DevicePlan d = flatten(product, plan, options.antithetic);
  const DeviceArray<double> drift(plan.drift), shock(plan.shock), bridge(plan.bridge_rate), discount(plan.discount);
  const DeviceArray<int> autocall(plan.autocall);
  const DeviceArray<unsigned char> monitored(plan.monitored);
  d.drift = drift.get();
  d.shock = shock.get();
  d.bridge_rate = bridge.get();
  d.discount = discount.get();
  d.autocall = autocall.get();
  d.monitored = monitored.get();

  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  const long long pairs = (options.paths + 1) / 2;
  const long long wanted = (pairs + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const int blocks = static_cast<int>(std::max(1LL, std::min<long long>(wanted, 16LL * sms)));
  const DeviceArray<double> block_sum(static_cast<std::size_t>(blocks)), block_sum_sq(static_cast<std::size_t>(blocks));
  // Sums of squares around a rough level keep the variance free of cancellation.
  const double shift = product.is_els() ? product.notional : 0.0;
  switch (d.dim) {
    case 1: simulate_pairs<1><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.get(), block_sum_sq.get()); break;
    case 2: simulate_pairs<2><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.get(), block_sum_sq.get()); break;
    default: simulate_pairs<3><<<blocks, kThreadsPerBlock>>>(d, options.seed, pairs, shift, block_sum.get(), block_sum_sq.get()); break;
  }
  check(cudaGetLastError(), "simulate_pairs launch");
  std::vector<double> sums(static_cast<std::size_t>(blocks)), sums_sq(static_cast<std::size_t>(blocks));
  check(cudaMemcpy(sums.data(), block_sum.get(), sums.size() * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
  check(cudaMemcpy(sums_sq.data(), block_sum_sq.get(), sums_sq.size() * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");

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
  return r;
}

}  // namespace elsbench
