#include "reference/monte_carlo.hpp"

#include <omp.h>

#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "platform/host_memory.hpp"
#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "products/payoff.hpp"
#include "reference/pair_path.hpp"
#include "reference/path_math.hpp"
#include "reference/path_plan.hpp"
#include "reference/philox.hpp"

namespace elsbench {
namespace {

using mc::Moments;
constexpr int kLanes = mc::kPairsPerBlock;  // antithetic pairs simulated side by side: one block
constexpr int kChunkSteps = mc::kChunkSteps;

// A block of up to kLanes antithetic pairs, stepped date by date in structure-of-arrays form so
// that each per-date loop over the pairs vectorises. The pairs still running sit in lanes
// [0, live_); pairs whose both paths have been redeemed are dropped at each date with events, so
// early redemptions stop costing work.
template <int D, bool Antithetic>
class PairBlock {
 public:
  PairBlock(const PathPlan& plan, const mc::PlanView& view) : view_(view), plan_(plan) {}

  // Simulates pairs first_pair .. first_pair + pairs - 1; their averages are then pair_average(s).
  void simulate(std::uint64_t first_pair, int pairs) {
    start_paths(first_pair, pairs);
    for (int step = 0; step < plan_.steps && live_ > 0; ++step) {
      if (step % kChunkSteps == 0) draw_normals(step / kChunkSteps);
      if (plan_.continuous) remember_previous_date();
      const PathEvent* knock_in = knock_in_at(step);
      if (knock_in != nullptr)
        advance<true>(step, knock_in->log_barrier);
      else
        advance<false>(step, 0.0);
      if (plan_.continuous) apply_bridge_crossing(step);
      if (meet_events(step)) drop_finished_pairs();
    }
    redeem_at_maturity();
  }

  double pair_average(int slot) const { return 0.5 * (payoff_[0][slot] + payoff_[1][slot]); }

  // The block's pair averages summed in order, as pair_path.hpp's engines sum them.
  Moments moments(int pairs) const {
    Moments m;
    for (int s = 0; s < pairs; ++s) m.add(pair_average(s));
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
        state_[m][l] = mc::PathState{};
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
          philox::normals4(block, lo[l], hi[l], static_cast<std::uint32_t>(s), view_.key[0], view_.key[1],
                           z0[l], z1[l], z2[l], z3[l]);
      }
  }

  // One exact log-space step to the next date; with Observe, the date's knock-in observation,
  // vectorised here with the step: pair_path.hpp's on_path rule for a knock-in, lane by lane.
  template <bool Observe>
  void advance(int step, double barrier) {
    std::array<double, D> drift;
    std::array<std::array<double, D>, D> shock;
    for (int a = 0; a < D; ++a) {
      drift[a] = plan_.drift_at(step, a);
      for (int b = 0; b < D; ++b) shock[a][b] = plan_.shock_at(step, a, b);
    }
    const int first = (step % kChunkSteps) * D;
    const bool worst = terms_.worst_of;
    // The loops over assets and paths are unrolled so that the loop over lanes is innermost,
    // the one GCC vectorises.
    for (int l = 0; l < live_; ++l) {
#pragma GCC unroll 3
      for (int a = 0; a < D; ++a) {
        double y = 0, y_other = 0;
#pragma GCC unroll 3
        for (int b = 0; b <= a; ++b) {
          y = path_math::mul_add(shock[a][b], z_[0][first + b][l], y);
          if constexpr (!Antithetic) y_other = path_math::mul_add(shock[a][b], z_[kStreams - 1][first + b][l], y_other);
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

  // Continuous monitoring: pair_path.hpp's bridge_survival, lane by lane.
  void apply_bridge_crossing(int step) {
    for (int m = 0; m < 2; ++m)
      for (int l = 0; l < live_; ++l) {
        double before[D], after[D];
        for (int a = 0; a < D; ++a) {
          before[a] = x_before_[m][a][l];
          after[a] = x_[m][a][l];
        }
        survival_[m][l] *= mc::bridge_survival<D>(view_, step, before, after);
      }
  }

  // Room for three assets whatever D is: payoff.hpp indexes spots by product type, which the
  // compiler cannot tie to D.
  using Spots = std::array<double, kMaxAssets>;
  const double* spots(int m, int l, Spots& s) const {
    for (int a = 0; a < D; ++a) s[a] = mc::spot_of(terms_, a, x_[m][a][l]);
    return s.data();
  }

  // The date's knock-in observation, if it has one: taken with the step (advance). It reads and
  // writes only a path's survival, which no other event reads, so it may come first.
  const PathEvent* knock_in_at(int step) const {
    for (const PathEvent& e : plan_.events_at(step))
      if (e.kind == EventKind::KnockIn) return &e;
    return nullptr;
  }

  // The date's other events, lane by lane through pair_path.hpp's on_path; whether a pair
  // finished there.
  bool meet_events(int step) {
    const double discount = plan_.discount[static_cast<std::size_t>(step)];
    bool finished = false;
    for (const PathEvent& e : plan_.events_at(step)) {
      if (e.kind == EventKind::KnockIn) continue;
      for (int l = 0; l < live_; ++l) {
        for (int m = 0; m < 2; ++m) meet(e, discount, m, l);
        finished = finished || (state_[0][l].done && state_[1][l].done);
      }
    }
    return finished;
  }

  void meet(const PathEvent& e, double discount, int m, int l) {
    mc::PathState& s = state_[m][l];
    if (s.done) return;
    double x[D];
    for (int a = 0; a < D; ++a) x[a] = x_[m][a][l];
    s.survival = survival_[m][l];
    mc::on_path<D>(view_, e, discount, x, s);
    survival_[m][l] = s.survival;
  }

  void redeem_at_maturity() {
    const double discount = plan_.discount.back();
    for (int l = 0; l < live_; ++l)
      for (int m = 0; m < 2; ++m) {
        double paid = state_[m][l].paid;
        Spots buffer{};
        if (!state_[m][l].done) paid += discount * mc::maturity_redemption(terms_, spots(m, l, buffer), survival_[m][l]);
        payoff_[m][slot_[l]] = paid;
      }
  }

  void move_lane(int to, int from) {
    pair_lo_[to] = pair_lo_[from];
    pair_hi_[to] = pair_hi_[from];
    slot_[to] = slot_[from];
    for (int m = 0; m < 2; ++m) {
      for (int a = 0; a < D; ++a) x_[m][a][to] = x_[m][a][from];
      survival_[m][to] = survival_[m][from];
      state_[m][to] = state_[m][from];
    }
    for (int s = 0; s < kStreams; ++s)
      for (int n = 0; n < kNormals; ++n) z_[s][n][to] = z_[s][n][from];
  }

  // A finished pair's payoffs go to its slot; the pairs still running close up.
  void drop_finished_pairs() {
    int kept = 0;
    for (int l = 0; l < live_; ++l) {
      if (state_[0][l].done && state_[1][l].done) {
        for (int m = 0; m < 2; ++m) payoff_[m][slot_[l]] = state_[m][l].paid;
        continue;
      }
      if (kept != l) move_lane(kept, l);
      ++kept;
    }
    live_ = kept;
  }

  const mc::PlanView view_;
  const PayoffTerms& terms_ = view_.terms;
  const PathPlan& plan_;
  int live_ = 0;
  alignas(64) double x_[2][D][kLanes];  // [path of the pair][asset][lane]: log(S / reference)
  alignas(64) double x_before_[2][D][kLanes];
  alignas(64) double survival_[2][kLanes];  // probability of not having knocked in
  alignas(64) double z_[kStreams][kNormals][kLanes];
  alignas(64) std::uint32_t pair_lo_[kLanes];
  alignas(64) std::uint32_t pair_hi_[kLanes];
  int slot_[kLanes];  // the lane's position when the block started: where its payoffs go
  mc::PathState state_[2][kLanes];  // what the events have done to the path (its survival is survival_)
  double payoff_[2][kLanes];        // discounted payoff per path, by slot, once it is finished
};

// Calls body.template operator()<D, Antithetic>() for the product's dimension: the engine's loops
// are compiled for each asset count.
template <class Body>
void with_engine(int dim, bool antithetic, Body&& body) {
  const auto by_pairs = [&]<int D>() {
    if (antithetic)
      body.template operator()<D, true>();
    else
      body.template operator()<D, false>();
  };
  switch (dim) {
    case 1: by_pairs.template operator()<1>(); break;
    case 2: by_pairs.template operator()<2>(); break;
    case 3: by_pairs.template operator()<3>(); break;
    default: throw std::invalid_argument("Monte Carlo supports 1 to 3 underlyings");
  }
}

// Simulates pairs first_pair .. first_pair + pairs - 1 in blocks of kLanes, each thread with a
// PairBlock of its own, and hands each simulated block to on_block(block, b, n).
template <int D, bool A, class OnBlock>
void simulate_blocks(const PathPlan& plan, const mc::PlanView& view, std::uint64_t first_pair, std::int64_t pairs,
                     int threads, OnBlock on_block) {
  const std::int64_t blocks = (pairs + kLanes - 1) / kLanes;
#pragma omp parallel num_threads(threads)
  {
    auto block = std::make_unique<PairBlock<D, A>>(plan, view);
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (stop_requested()) continue;  // a Ctrl-C from Python: the blocks left are skipped
      const std::int64_t first = b * kLanes;
      const int n = static_cast<int>(std::min<std::int64_t>(kLanes, pairs - first));
      block->simulate(first_pair + static_cast<std::uint64_t>(first), n);
      on_block(*block, b, n);
    }
  }
  if (stop_requested()) throw SolverError(SolverError::Kind::Interrupted, "Monte Carlo stopped on request");
}

// A block's moments are kept until the end, merged in block order (the same price for any thread
// count): 2^40 paths would ask for terabytes. Refused before any path, naming --paths.
void require_block_memory(std::size_t bytes, std::int64_t paths) {
  const std::size_t available = available_host_bytes();
  if (available == 0 || bytes <= available / 2) return;
  throw SolverError(SolverError::Kind::OutOfMemory,
                    std::to_string(paths) + " paths keep " + std::to_string(bytes >> 20) + " MiB of block sums, more than half of the " +
                        std::to_string(available >> 20) + " MiB this machine has free: use fewer --paths");
}

mc::PlanView view_for(const Product& product, const PathPlan& plan, const McOptions& o) {
  return mc::plan_view(plan, payoff_terms(product), o.seed, o.antithetic);
}

}  // namespace

std::vector<double> monte_carlo_pair_averages(const Product& product, const McOptions& options,
                                              std::uint64_t first_pair, int count, PathCode code) {
  const PathPlan plan = make_path_plan(product);
  const mc::PlanView view = view_for(product, plan, options);
  std::vector<double> averages(static_cast<std::size_t>(count));
  with_engine(plan.dim, options.antithetic, [&]<int D, bool A>() {
    if (code == PathCode::Shared) {
      for (int i = 0; i < count; ++i)
        averages[static_cast<std::size_t>(i)] = mc::pair_average<D>(view, first_pair + static_cast<std::uint64_t>(i));
      return;
    }
    simulate_blocks<D, A>(plan, view, first_pair, count, 1, [&](const PairBlock<D, A>& block, std::int64_t b, int n) {
      for (int s = 0; s < n; ++s) averages[static_cast<std::size_t>(b * kLanes + s)] = block.pair_average(s);
    });
  });
  return averages;
}

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
  const mc::PlanView view = view_for(product, plan, options);
  const auto blocks = static_cast<std::size_t>((pairs + kLanes - 1) / kLanes);
  require_block_memory(blocks * sizeof(Moments), options.paths);
  std::vector<Moments> per_block(blocks);
  with_engine(plan.dim, options.antithetic, [&]<int D, bool A>() {
    simulate_blocks<D, A>(plan, view, 0, pairs, threads, [&](const PairBlock<D, A>& block, std::int64_t b, int n) {
      per_block[static_cast<std::size_t>(b)] = block.moments(n);
    });
  });
  Moments m;
  for (const Moments& b : per_block) m.merge(b);
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
