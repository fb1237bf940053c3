#pragma once
// One antithetic pair of Monte Carlo paths, written once for the host and the device: the CUDA
// engine runs pair_average() in a thread per pair, the CPU runs it in the unit tests, which hold
// the CPU engine's vectorised form of the same steps (monte_carlo.cpp) equal to it bit for bit.
// Both engines sum a block of kPairsPerBlock pair averages in order into Moments and merge the
// blocks in order, so a CPU and a GPU price of the same paths are the same bits (the build keeps
// the compilers from contracting this arithmetic into FMAs: see CMakeLists.txt).
#include <cstdint>

#include "platform/hd.hpp"
#include "products/payoff.hpp"
#include "reference/path_math.hpp"
#include "reference/path_plan.hpp"
#include "reference/philox.hpp"

namespace elsbench::mc {

inline constexpr int kPairsPerBlock = 128;  // pairs summed in order into one block's moments
inline constexpr int kChunkSteps = 4;       // steps whose normals come from D Philox blocks

// Count, mean and sum of squared deviations of pair averages; blocks merge in block order (Chan,
// Golub & LeVeque), so the result does not depend on which thread or device ran a block.
struct Moments {
  double count = 0, mean = 0, m2 = 0;

  ELSBENCH_HD void add(double y) {
    count += 1;
    const double d = y - mean;
    mean += d / count;
    m2 += d * (y - mean);
  }
  ELSBENCH_HD void merge(const Moments& o) {
    if (o.count == 0) return;
    const double n = count + o.count, d = o.mean - mean;
    mean += d * o.count / n;
    m2 += o.m2 + d * d * count * o.count / n;
    count = n;
  }
};

// What a path reads: the PathPlan's per-step arrays (host or device pointers) and the scalars.
struct PlanView {
  int steps = 0;
  const double* drift = nullptr;        // [step][asset]
  const double* shock = nullptr;        // [step][asset][asset]
  const double* bridge_rate = nullptr;  // [step][asset]
  const double* discount = nullptr;     // [step]
  const int* autocall = nullptr;        // [step]
  const unsigned char* monitored = nullptr;
  const unsigned char* coupon = nullptr;  // [step]: a periodic coupon date
  double start[kMaxAssets] = {};
  double log_barrier = 0;
  int lizard_step = -1;  // PathPlan's
  double log_lizard = 0;
  bool continuous = false, starts_knocked_in = false, antithetic = true;
  std::uint32_t key[2] = {};  // the seed's two words
  PayoffTerms terms;
};

// A view of a host PathPlan; the CUDA engine swaps in device copies of the arrays.
inline PlanView plan_view(const PathPlan& plan, const PayoffTerms& terms, std::uint64_t seed, bool antithetic) {
  PlanView v;
  v.steps = plan.steps;
  v.drift = plan.drift.data();
  v.shock = plan.shock.data();
  v.bridge_rate = plan.bridge_rate.data();
  v.discount = plan.discount.data();
  v.autocall = plan.autocall.data();
  v.monitored = plan.monitored.data();
  v.coupon = plan.coupon.data();
  for (int a = 0; a < plan.dim; ++a) v.start[a] = plan.start[static_cast<std::size_t>(a)];
  v.log_barrier = plan.log_barrier;
  v.lizard_step = plan.lizard_step;
  v.log_lizard = plan.log_lizard;
  v.continuous = plan.continuous;
  v.starts_knocked_in = plan.starts_knocked_in;
  v.antithetic = antithetic;
  v.key[0] = static_cast<std::uint32_t>(seed);
  v.key[1] = static_cast<std::uint32_t>(seed >> 32);
  v.terms = terms;
  return v;
}

// S_a = reference_a e^(x_a), x_a = log(S_a / reference_a).
ELSBENCH_HD double spot_of(const PayoffTerms& t, int a, double x) { return t.reference[a] * path_math::exp_bounded(x); }

// Probability that a Brownian bridge from d0 to d1 above the barrier (distances in log units)
// dips below it: exp(-2 d0 d1 / (vol^2 dt)); 1 if either end is below.
ELSBENCH_HD double crossing_probability(double d0, double d1, double rate) {
  return (d0 > 0 && d1 > 0) ? path_math::exp_bounded(-d0 * d1 * rate) : 1.0;
}

// The redemption is linear in the knock-in indicator, so a survival probability q pays
// q * (amount if not knocked in) + (1 - q) * (amount if knocked in).
ELSBENCH_HD double maturity_redemption(const PayoffTerms& t, const double* spots, double q) {
  if (t.type != ProductType::StepdownEls) return option_payoff(t, spots);
  const double perf = performance(t, spots);
  return q * maturity_amount(t, perf, false) + (1.0 - q) * maturity_amount(t, perf, true);
}

// Log performance: the min (worst-of) or max (best-of) of x_a = log(S_a / reference_a).
template <int D>
ELSBENCH_HD double log_performance(const PlanView& p, const double* x) {
  double lo = x[0], hi = lo;
  ELSBENCH_UNROLL
  for (int a = 1; a < D; ++a) {
    lo = x[a] < lo ? x[a] : lo;
    hi = hi < x[a] ? x[a] : hi;
  }
  return p.terms.worst_of ? lo : hi;
}

// The daily knock-in observation on log performance: knocks_in() of payoff.hpp without an exp.
template <int D>
ELSBENCH_HD double observed_survival(const PlanView& p, const double* x, double q) {
  return log_performance<D>(p, x) < p.log_barrier ? 0.0 : q;
}

// A monitoring day up to a lizard's date: whether the lizard still holds (a close below its
// barrier breaks it: Lizard in product.hpp), on log performance.
template <int D>
ELSBENCH_HD bool lizard_holds(const PlanView& p, const double* x, bool intact) {
  return intact && !(log_performance<D>(p, x) < p.log_lizard);
}

// Continuous monitoring over one interval: the factor on the survival probability, with no extra
// numbers and less variance than drawing the crossing; exact for one asset. Several assets' bridges
// are taken as independent given their ends, over one-day intervals (two crossing the same day is
// rare). Worst-of knocks in when any asset crosses: P = 1 - prod_a (1 - p_a); with positive
// correlation the true one lies between max_a p_a and P, so the price is at worst a hair low. Best-of
// needs every asset below at once (no bridge formula): P = min_a p_a bounds it above (every asset must
// cross), so the price is a lower bound (tests check it lies below the daily-monitored price).
template <int D>
ELSBENCH_HD double bridge_survival(const PlanView& p, int step, const double* before, const double* x) {
  double no_cross_all = 1.0, min_cross = 1.0;
  ELSBENCH_UNROLL
  for (int a = 0; a < D; ++a) {
    const double cross = crossing_probability(before[a] - p.log_barrier, x[a] - p.log_barrier, p.bridge_rate[step * D + a]);
    no_cross_all *= 1.0 - cross;
    min_cross = cross < min_cross ? cross : min_cross;
  }
  return p.terms.worst_of ? no_cross_all : 1.0 - min_cross;
}

// Discounted payoffs of pair `pair`'s two paths, averaged. The numbers (the CPU engine's too,
// generator version 1): normal n = step * D + asset of a pair's stream s is output n % 4 of the
// Philox block with counter (n / 4, pair low word, pair high word, s) and key (seed low word, seed
// high word); an antithetic pair's second path takes the negated normals, a plain pair's second
// path its own stream s = 1.
template <int D>
ELSBENCH_HD double pair_average(const PlanView& p, std::uint64_t pair) {
  constexpr int kNormals = kChunkSteps * D;
  const auto lo = static_cast<std::uint32_t>(pair), hi = static_cast<std::uint32_t>(pair >> 32);
  const int streams = p.antithetic ? 1 : 2;
  double x[2][D], before[2][D], q[2], paid[2] = {0.0, 0.0}, z[2][kNormals];
  bool done[2] = {false, false};
  int missed[2] = {0, 0};  // coupon dates since the last coupon paid
  bool intact[2] = {true, true};  // no close below a lizard's barrier yet
  for (int m = 0; m < 2; ++m) {
    for (int a = 0; a < D; ++a) x[m][a] = p.start[a];
    q[m] = p.starts_knocked_in ? 0.0 : 1.0;
  }
  for (int step = 0; step < p.steps && !(done[0] && done[1]); ++step) {
    const int first = (step % kChunkSteps) * D;
    if (first == 0)
      for (int s = 0; s < streams; ++s)
        for (int g = 0; g < D; ++g)
          philox::normals4(static_cast<std::uint32_t>(step / kChunkSteps * D + g), lo, hi, static_cast<std::uint32_t>(s),
                           p.key[0], p.key[1], z[s][4 * g], z[s][4 * g + 1], z[s][4 * g + 2], z[s][4 * g + 3]);
    for (int m = 0; m < 2; ++m)
      for (int a = 0; a < D; ++a) before[m][a] = x[m][a];
    for (int a = 0; a < D; ++a) {
      double y = 0, y_other = 0;
      for (int b = 0; b <= a; ++b) {
        const double shock = p.shock[(step * D + a) * D + b];
        y = path_math::mul_add(shock, z[0][first + b], y);
        if (!p.antithetic) y_other = path_math::mul_add(shock, z[1][first + b], y_other);
      }
      const double drift = p.drift[step * D + a];
      x[0][a] += drift + y;
      x[1][a] += p.antithetic ? drift - y : drift + y_other;
    }
    for (int m = 0; m < 2; ++m) {
      if (p.monitored[step]) q[m] = observed_survival<D>(p, x[m], q[m]);
      if (p.monitored[step] && step <= p.lizard_step) intact[m] = lizard_holds<D>(p, x[m], intact[m]);
      if (p.continuous) q[m] *= bridge_survival<D>(p, step, before[m], x[m]);
    }
    if (p.coupon[step])
      for (int m = 0; m < 2; ++m) {
        if (done[m]) continue;
        double s[kMaxAssets] = {};
        for (int a = 0; a < D; ++a) s[a] = spot_of(p.terms, a, x[m][a]);
        paid[m] += p.discount[step] * coupon_payment(p.terms, performance(p.terms, s), missed[m]);
      }
    const int date = p.autocall[step];
    if (date < 0 || step + 1 >= p.steps) continue;
    for (int m = 0; m < 2; ++m) {
      if (done[m]) continue;
      double s[kMaxAssets] = {};
      for (int a = 0; a < D; ++a) s[a] = spot_of(p.terms, a, x[m][a]);
      if (!autocalls(p.terms, date, performance(p.terms, s))) continue;
      paid[m] += p.discount[step] * autocall_amount(p.terms, date);
      done[m] = true;
    }
    if (step == p.lizard_step)
      for (int m = 0; m < 2; ++m) {
        if (done[m] || !intact[m]) continue;
        paid[m] += p.discount[step] * p.terms.lizard_amount;
        done[m] = true;
      }
  }
  for (int m = 0; m < 2; ++m) {
    if (done[m]) continue;
    double s[kMaxAssets] = {};
    for (int a = 0; a < D; ++a) s[a] = spot_of(p.terms, a, x[m][a]);
    paid[m] += p.discount[p.steps - 1] * maturity_redemption(p.terms, s, q[m]);
  }
  return 0.5 * (paid[0] + paid[1]);
}

}  // namespace elsbench::mc
