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
  const PathEvent* events = nullptr;    // PathPlan's, step by step
  const int* step_events = nullptr;     // [step + 1]
  double start[kMaxAssets] = {};
  double log_barrier = 0;  // the knock-in's, for the bridge
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
  v.events = plan.events.data();
  v.step_events = plan.step_events.data();
  for (int a = 0; a < plan.dim; ++a) v.start[a] = plan.start[static_cast<std::size_t>(a)];
  v.log_barrier = plan.log_barrier;
  v.continuous = plan.continuous;
  v.starts_knocked_in = plan.starts_knocked_in;
  v.antithetic = antithetic;
  v.key[0] = static_cast<std::uint32_t>(seed);
  v.key[1] = static_cast<std::uint32_t>(seed >> 32);
  v.terms = terms;
  return v;
}

// A path between its dates.
struct PathState {
  double survival = 1;  // probability of not having knocked in (below 1 between continuous observations)
  double paid = 0;      // discounted payments so far
  int missed = 0;       // coupon dates since the last coupon paid
  bool intact = true;   // no close below a lizard's barrier yet
  bool done = false;    // redeemed
};

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

// The performance of a path at a date (payoff.hpp's, on its spots).
template <int D>
ELSBENCH_HD double date_performance(const PayoffTerms& t, const double* x) {
  double s[kMaxAssets] = {};
  for (int a = 0; a < D; ++a) s[a] = spot_of(t, a, x[a]);
  return performance(t, s);
}

ELSBENCH_HD void redeem(PathState& s, double paid) {
  s.paid += paid;
  s.done = true;
}

// A coupon at or above its barrier pays its amount, one that accrues also the dates missed since
// the last paid; PathState::missed counts the dates that paid nothing.
ELSBENCH_HD void pay_coupon(const PathEvent& e, double discount, double perf, PathState& s) {
  if (!(perf >= e.barrier)) {
    ++s.missed;
    return;
  }
  s.paid += discount * (e.accrues ? e.amount * (s.missed + 1) : e.amount);
  s.missed = 0;
}

// What event e on its date does to a path at log levels x: each kind's path rule, as
// event_kind.hpp holds its rule at a node. A redeemed path meets no more events. Observations
// compare log performance with the log barrier (payoff.hpp's knocks_in without an exp); payments
// take payoff.hpp's performance. An autocall on maturity is the redemption there (maturity_redemption).
ELSBENCH_EVERY_KIND_BEGIN
template <int D>
ELSBENCH_HD void on_path(const PlanView& p, const PathEvent& e, double discount, const double* x, PathState& s) {
  if (s.done) return;
  switch (e.kind) {
    case EventKind::Coupon: pay_coupon(e, discount, date_performance<D>(p.terms, x), s); return;
    case EventKind::KnockIn: s.survival = log_performance<D>(p, x) < e.log_barrier ? 0.0 : s.survival; return;
    case EventKind::LizardBreak: s.intact = s.intact && !(log_performance<D>(p, x) < e.log_barrier); return;
    case EventKind::Autocall:
      if (!e.in_payoff && date_performance<D>(p.terms, x) >= e.barrier) redeem(s, discount * e.amount);
      return;
    case EventKind::LizardRedeem:
      if (s.intact) redeem(s, discount * e.amount);
      return;
  }
}
ELSBENCH_EVERY_KIND_END

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
  double x[2][D], before[2][D], z[2][kNormals];
  PathState path[2];
  for (int m = 0; m < 2; ++m) {
    for (int a = 0; a < D; ++a) x[m][a] = p.start[a];
    path[m].survival = p.starts_knocked_in ? 0.0 : 1.0;
  }
  for (int step = 0; step < p.steps && !(path[0].done && path[1].done); ++step) {
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
      if (p.continuous) path[m].survival *= bridge_survival<D>(p, step, before[m], x[m]);
      for (int i = p.step_events[step]; i < p.step_events[step + 1]; ++i)
        on_path<D>(p, p.events[i], p.discount[step], x[m], path[m]);
    }
  }
  for (int m = 0; m < 2; ++m) {
    if (path[m].done) continue;
    double s[kMaxAssets] = {};
    for (int a = 0; a < D; ++a) s[a] = spot_of(p.terms, a, x[m][a]);
    path[m].paid += p.discount[p.steps - 1] * maturity_redemption(p.terms, s, path[m].survival);
  }
  return 0.5 * (path[0].paid + path[1].paid);
}

}  // namespace elsbench::mc
