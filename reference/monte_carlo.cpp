#include "reference/monte_carlo.hpp"

#include <omp.h>

#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "platform/solver_error.hpp"
#include "products/payoff.hpp"
#include "reference/path_plan.hpp"
#include "reference/philox.hpp"

namespace elsbench {
namespace {

constexpr int kLanes = 128;     // antithetic pairs simulated side by side: one block of work
constexpr int kChunkSteps = 4;  // steps whose normals are drawn at once: 4 per Philox block

// Count, mean and sum of squared deviations of pair averages; blocks are merged in block order
// (Chan, Golub & LeVeque), which keeps the result independent of the thread count.
struct Moments {
  double count = 0, mean = 0, m2 = 0;

  void add(double y) {
    count += 1;
    const double d = y - mean;
    mean += d / count;
    m2 += d * (y - mean);
  }
  void merge(const Moments& o) {
    if (o.count == 0) return;
    const double n = count + o.count, d = o.mean - mean;
    mean += d * o.count / n;
    m2 += o.m2 + d * d * count * o.count / n;
    count = n;
  }
};

// A block of up to kLanes antithetic pairs, stepped date by date in structure-of-arrays form so
// that each per-date loop over the pairs vectorises. The pairs still running sit in lanes
// [0, live_); pairs whose both paths have been redeemed are dropped at each autocall date, so
// early redemptions stop costing work.
template <int D, bool Antithetic>
class PairBlock {
 public:
  PairBlock(const Product& p, const PathPlan& plan, std::uint64_t seed)
      : terms_(payoff_terms(p)), plan_(plan),
        key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)} {}

  // Sum of the block's pair averages, as moments; pairs first_pair .. first_pair + pairs - 1.
  Moments simulate(std::uint64_t first_pair, int pairs) {
    start_paths(first_pair, pairs);
    for (int step = 0; step < plan_.steps && live_ > 0; ++step) {
      if (step % kChunkSteps == 0) draw_normals(step / kChunkSteps);
      if (plan_.continuous) remember_previous_date();
      if (plan_.monitored[static_cast<std::size_t>(step)])
        advance<true>(step);
      else
        advance<false>(step);
      if (plan_.continuous) apply_bridge_crossing(step);
      if (plan_.autocall[static_cast<std::size_t>(step)] >= 0 && step + 1 < plan_.steps) {
        observe_autocall(step);
        drop_finished_pairs();
      }
    }
    redeem_at_maturity();
    Moments m;
    for (int s = 0; s < pairs; ++s) m.add(0.5 * (payoff_[0][s] + payoff_[1][s]));
    return m;
  }

 private:
  static constexpr int kStreams = Antithetic ? 1 : 2;  // normal streams per pair
  static constexpr int kNormals = kChunkSteps * D;     // normals per stream per chunk

  void start_paths(std::uint64_t first_pair, int pairs) {
    live_ = pairs;
    const double survival = plan_.starts_knocked_in ? 0.0 : 1.0;
    for (int l = 0; l < pairs; ++l) {
      const std::uint64_t pair = first_pair + static_cast<std::uint64_t>(l);
      pair_lo_[l] = static_cast<std::uint32_t>(pair);
      pair_hi_[l] = static_cast<std::uint32_t>(pair >> 32);
      slot_[l] = l;
      for (int m = 0; m < 2; ++m) {
        for (int a = 0; a < D; ++a) x_[m][a][l] = plan_.start[static_cast<std::size_t>(a)];
        survival_[m][l] = survival;
        done_[m][l] = false;
      }
    }
  }

  // Normal number n = step * D + asset of a pair's stream is output n % 4 of the Philox block
  // with counter (n / 4, pair, stream): a chunk of kChunkSteps steps is exactly D blocks.
  void draw_normals(int chunk) {
    for (int s = 0; s < kStreams; ++s)
      for (int g = 0; g < D; ++g) {
        const auto block = static_cast<std::uint32_t>(chunk * D + g);
        double* __restrict z0 = z_[s][4 * g];
        double* __restrict z1 = z_[s][4 * g + 1];
        double* __restrict z2 = z_[s][4 * g + 2];
        double* __restrict z3 = z_[s][4 * g + 3];
        const std::uint32_t* __restrict lo = pair_lo_;
        const std::uint32_t* __restrict hi = pair_hi_;
        for (int l = 0; l < live_; ++l)
          philox::normals4(block, lo[l], hi[l], static_cast<std::uint32_t>(s), key_[0], key_[1],
                           z0[l], z1[l], z2[l], z3[l]);
      }
  }

  // One exact log-space step to the next date; with Observe, the daily knock-in observation,
  // taken on log performance (min or max of x_a = log(S_a / reference_a)) against the log barrier:
  // knocks_in() of payoff.hpp, without an exp per asset and path.
  template <bool Observe>
  void advance(int step) {
    std::array<double, D> drift;
    std::array<std::array<double, D>, D> shock;
    for (int a = 0; a < D; ++a) {
      drift[a] = plan_.drift_at(step, a);
      for (int b = 0; b < D; ++b) shock[a][b] = plan_.shock_at(step, a, b);
    }
    const int first = (step % kChunkSteps) * D;
    const double barrier = plan_.log_barrier;
    const bool worst = terms_.worst_of;
    // The loops over assets and paths are unrolled so that the loop over lanes is innermost,
    // the one GCC vectorises.
    for (int l = 0; l < live_; ++l) {
#pragma GCC unroll 3
      for (int a = 0; a < D; ++a) {
        double y = 0, y_other = 0;
#pragma GCC unroll 3
        for (int b = 0; b <= a; ++b) {
          y += shock[a][b] * z_[0][first + b][l];
          if constexpr (!Antithetic) y_other += shock[a][b] * z_[kStreams - 1][first + b][l];
        }
        x_[0][a][l] += drift[a] + y;
        x_[1][a][l] += Antithetic ? drift[a] - y : drift[a] + y_other;
      }
      if constexpr (Observe) {
#pragma GCC unroll 2
        for (int m = 0; m < 2; ++m) {
          double lo = x_[m][0][l], hi = lo;
#pragma GCC unroll 3
          for (int a = 1; a < D; ++a) {
            lo = std::min(lo, x_[m][a][l]);
            hi = std::max(hi, x_[m][a][l]);
          }
          const double perf = worst ? lo : hi;
          survival_[m][l] = perf < barrier ? 0.0 : survival_[m][l];
        }
      }
    }
  }

  void remember_previous_date() {
    for (int m = 0; m < 2; ++m)
      for (int a = 0; a < D; ++a)
        for (int l = 0; l < live_; ++l) x_before_[m][a][l] = x_[m][a][l];
  }

  // Continuous monitoring: probability that asset a's Brownian bridge between the two dates dips
  // below the barrier, exp(-2 (x0 - h)(x1 - h) / (vol^2 dt)), 1 if either end is below it;
  // combined over assets as monte_carlo.hpp explains.
  void apply_bridge_crossing(int step) {
    const double h = plan_.log_barrier;
    for (int m = 0; m < 2; ++m)
      for (int l = 0; l < live_; ++l) {
        double no_cross_all = 1.0, min_cross = 1.0;
        for (int a = 0; a < D; ++a) {
          const double d0 = x_before_[m][a][l] - h, d1 = x_[m][a][l] - h;
          const double rate = plan_.bridge_rate[static_cast<std::size_t>(step * D + a)];
          const double cross = (d0 > 0 && d1 > 0) ? std::exp(-d0 * d1 * rate) : 1.0;
          no_cross_all *= 1.0 - cross;
          min_cross = std::min(min_cross, cross);
        }
        survival_[m][l] *= terms_.worst_of ? no_cross_all : 1.0 - min_cross;
      }
  }

  // Room for three assets whatever D is: payoff.hpp indexes spots by product type, which the
  // compiler cannot tie to D.
  using Spots = std::array<double, kMaxAssets>;
  const double* spots(int m, int l, Spots& s) const {
    for (int a = 0; a < D; ++a) s[a] = terms_.reference[a] * std::exp(x_[m][a][l]);
    return s.data();
  }

  void observe_autocall(int step) {
    const int date = plan_.autocall[static_cast<std::size_t>(step)];
    const double discount = plan_.discount[static_cast<std::size_t>(step)];
    for (int l = 0; l < live_; ++l)
      for (int m = 0; m < 2; ++m) {
        if (done_[m][l]) continue;
        Spots buffer{};
        if (!autocalls(terms_, date, performance(terms_, spots(m, l, buffer)))) continue;
        payoff_[m][slot_[l]] = discount * autocall_amount(terms_, date);
        done_[m][l] = true;
      }
  }

  // The redemption is linear in the knock-in indicator, so a survival probability q pays
  // q * (amount if not knocked in) + (1 - q) * (amount if knocked in).
  void redeem_at_maturity() {
    const double discount = plan_.discount.back();
    for (int l = 0; l < live_; ++l)
      for (int m = 0; m < 2; ++m) {
        if (done_[m][l]) continue;
        Spots buffer{};
        const double* s = spots(m, l, buffer);
        double amount = 0;
        if (terms_.type == ProductType::StepdownEls) {
          const double perf = performance(terms_, s), q = survival_[m][l];
          amount = q * maturity_amount(terms_, perf, false) + (1.0 - q) * maturity_amount(terms_, perf, true);
        } else {
          amount = option_payoff(terms_, s);
        }
        payoff_[m][slot_[l]] = discount * amount;
      }
  }

  void move_lane(int to, int from) {
    pair_lo_[to] = pair_lo_[from];
    pair_hi_[to] = pair_hi_[from];
    slot_[to] = slot_[from];
    for (int m = 0; m < 2; ++m) {
      for (int a = 0; a < D; ++a) x_[m][a][to] = x_[m][a][from];
      survival_[m][to] = survival_[m][from];
      done_[m][to] = done_[m][from];
    }
    for (int s = 0; s < kStreams; ++s)
      for (int n = 0; n < kNormals; ++n) z_[s][n][to] = z_[s][n][from];
  }

  void drop_finished_pairs() {
    int kept = 0;
    for (int l = 0; l < live_; ++l) {
      if (done_[0][l] && done_[1][l]) continue;
      if (kept != l) move_lane(kept, l);
      ++kept;
    }
    live_ = kept;
  }

  const PayoffTerms terms_;
  const PathPlan& plan_;
  const std::array<std::uint32_t, 2> key_;
  int live_ = 0;
  alignas(64) double x_[2][D][kLanes];  // [path of the pair][asset][lane]: log(S / reference)
  alignas(64) double x_before_[2][D][kLanes];
  alignas(64) double survival_[2][kLanes];  // probability of not having knocked in
  alignas(64) double z_[kStreams][kNormals][kLanes];
  alignas(64) std::uint32_t pair_lo_[kLanes];
  alignas(64) std::uint32_t pair_hi_[kLanes];
  int slot_[kLanes];  // the lane's position when the block started: where its payoffs go
  bool done_[2][kLanes];
  double payoff_[2][kLanes];  // discounted payoff per path, by slot
};

template <int D, bool A>
Moments simulate_all(const Product& p, const PathPlan& plan, const McOptions& o, std::int64_t pairs,
                     int threads) {
  const std::int64_t blocks = (pairs + kLanes - 1) / kLanes;
  std::vector<Moments> per_block(static_cast<std::size_t>(blocks));
#pragma omp parallel num_threads(threads)
  {
    auto block = std::make_unique<PairBlock<D, A>>(p, plan, o.seed);
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t first = b * kLanes;
      const int n = static_cast<int>(std::min<std::int64_t>(kLanes, pairs - first));
      const auto start = static_cast<std::uint64_t>(first);
      per_block[static_cast<std::size_t>(b)] = block->simulate(start, n);
    }
  }
  Moments total;
  for (const Moments& m : per_block) total.merge(m);
  return total;
}

template <int D>
Moments simulate_dim(const Product& p, const PathPlan& plan, const McOptions& o, std::int64_t pairs, int threads) {
  return o.antithetic ? simulate_all<D, true>(p, plan, o, pairs, threads)
                      : simulate_all<D, false>(p, plan, o, pairs, threads);
}

}  // namespace

std::string mc_generator_name(bool antithetic) {
  return std::string("philox4x32-10/box-muller") + (antithetic ? " antithetic" : " plain");
}

bool monte_carlo_uses_avx2() {
#ifdef __AVX2__
  return true;
#else
  return false;
#endif
}

McResult monte_carlo_price(const Product& product, const McOptions& options) {
  if (options.paths < 2) throw std::invalid_argument("Monte Carlo needs at least 2 paths");
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const std::int64_t pairs = (options.paths + 1) / 2;
  const PathPlan plan = make_path_plan(product);
  Moments m;
  switch (plan.dim) {
    case 1: m = simulate_dim<1>(product, plan, options, pairs, threads); break;
    case 2: m = simulate_dim<2>(product, plan, options, pairs, threads); break;
    case 3: m = simulate_dim<3>(product, plan, options, pairs, threads); break;
    default: throw std::invalid_argument("Monte Carlo supports 1 to 3 underlyings");
  }
  McResult r;
  r.price = m.mean;
  r.std_error = m.count > 1 ? std::sqrt(m.m2 / (m.count - 1) / m.count) : 0.0;
  r.paths = 2 * pairs;
  r.seed = options.seed;
  r.threads = threads;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.generator = mc_generator_name(options.antithetic);
  r.generator_version = kMcGeneratorVersion;
  r.device = "cpu";
  return require_finite(r);
}

const McResult& require_finite(const McResult& r) {
  if (!std::isfinite(r.price) || !std::isfinite(r.std_error))
    throw SolverError(SolverError::Kind::NonFinite,
                      "Monte Carlo: the price or its standard error is not finite: the product's levels lie beyond "
                      "what fp64 can carry");
  return r;
}

}  // namespace elsbench
