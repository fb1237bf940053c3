#include "solvers/contract/accuracy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <sstream>
#include <stdexcept>

#include "platform/solver_error.hpp"
#include "platform/stop_request.hpp"
#include "platform/stopwatch.hpp"
#include "solvers/contract/cost_model.hpp"
#include "solvers/contract/error_estimate.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/problem/grid_codec.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {
namespace {

std::vector<double> richardson_each(const std::vector<double>& fine, const std::vector<double>& coarse,
                                    double weight) {
  std::vector<double> out(fine.size());
  for (std::size_t i = 0; i < fine.size() && i < coarse.size(); ++i) out[i] = richardson(fine[i], coarse[i], weight);
  return out;
}

GridPricing pricing(std::string role, const PriceResult& r) {
  return {std::move(role), r.shape, r.time_steps, r.price, r.seconds};
}

// `options` on a grid of `factor` times its nodes per axis, at `nt` steps.
SolverOptions on_grid(const SolverOptions& options, double factor, std::size_t nt) {
  SolverOptions o = options;
  o.grid = scaled_nodes(options.grid, factor);
  o.grid.nt = static_cast<int>(nt);
  return o;
}

// A coarser level's refusal is the estimate's, not the price's: said so.
PriceResult level(const SolverInfo& solver, const Product& product, const SolverOptions& on, double factor,
                  std::size_t nt, const char* role, Accuracy& acc) {
  const SolverOptions options = on_grid(on, factor, nt);
  if (options.grid.n < kMinNodes)
    throw std::invalid_argument(std::string("the ") + role + " grid of Richardson's value would have " +
                                std::to_string(options.grid.n) + " nodes per axis, fewer than " +
                                std::to_string(kMinNodes) + "; use a larger --n");
  try {
    PriceResult r = price_with(solver, product, options);
    acc.pricings.push_back(pricing(role, r));
    return r;
  } catch (const SolverError& e) {
    if (e.kind() != SolverError::Kind::Unconverged) throw;
    throw SolverError(e.kind(), std::string("on the ") + role + " grid of Richardson's value: " + e.what());
  }
}

// Point-steps of every pricing over those of the fine one: what the value cost against one price.
void add_up_cost(Accuracy& acc, std::size_t fine) {
  double all = 0;
  for (const GridPricing& g : acc.pricings) all += g.point_steps();
  acc.cost = all / acc.pricings[fine].point_steps();
}

bool erratic(const Accuracy& acc, double coarser) {
  return erratic_order(observed_order({double(acc.n), acc.fine}, {acc.n / 2.0, acc.coarse}, {acc.n / 4.0, coarser}));
}

// Levels in order: |R(n) - R(n/2)|, and for an ELS no less than Richardson's own correction
// |P(n) - P(n/2)| / 3: its digitals' places in their cells make P(n) converge unevenly, and two
// extrapolations can agree by chance (on 101 knocked-in two-asset notes at n = 288 the first alone
// covered 82 against Monte Carlo, with the floor 94; docs/accuracy.md). Not an option's smooth
// levels (the max call's bar would be 3.5x its error), nor three assets with a knock-in to come,
// whose n/2 is before its asymptotic range: els-3a-stepdown's floor at n = 96 was 4.2 bp, its
// error 0.3; the 13 such notes of two families (docs/accuracy.md) held their bars without it.
bool floored(const Product& p) { return p.is_els() && !(p.dimension() == 3 && p.can_knock_in()); }

double ordered_space(const Product& p, const Accuracy& acc, double value, double coarser) {
  const double space = std::abs(value - richardson(acc.coarse, coarser, richardson_weight(p)));
  return floored(p) ? std::max(space, std::abs(value - acc.fine)) : space;
}

// The bar's coarser grid (n/4), or none where it cannot carry the note: a price beyond the note's
// bounds (a three-asset note's 20 nodes over a domain 17 times its spot) or a cell too wide at the
// spot says nothing of the finer grids, and the space part is then the whole change from n/2 to n, three times
// Richardson's correction, rather than the note refused for want of its bar.
std::optional<PriceResult> coarser_level(const SolverInfo& solver, const Product& product,
                                         const SolverOptions& options, std::size_t nt, Accuracy& acc) {
  try {
    return level(solver, product, options, 0.25, nt, "coarser", acc);
  } catch (const SolverError& e) {
    if (e.kind() != SolverError::Kind::Unconverged && e.kind() != SolverError::Kind::Unsupported) throw;
    return std::nullopt;
  }
}

// The time levels on the coarse grid, or where its steps cannot be halved (the dates pin them, or
// explicit Euler's bound refuses fewer: steps_pinned) on the coarser one: the level then doubles
// the steps and cost as much as Richardson's value on n/2, a sixteenth of the fine grid's work on
// n/4 (2-D). On the 104 generated notes of docs/accuracy.md the time level on n/4 was within about
// half of its value on n/2, and the bars held on the same notes. Returns the levels' seconds.
double add_time_levels(const SolverInfo& solver, const Product& product, const SolverOptions& options,
                       const PriceResult& r, const PriceResult& coarse, const std::optional<PriceResult>& coarser,
                       Accuracy& acc) {
  const bool pinned =
      r.nt < 2 || steps_pinned(solver, product, on_grid(options, 0.5, r.nt / 2), static_cast<int>(r.nt));
  // Without the coarser grid, the time and domain levels go to the coarse one.
  const bool time_on_coarser = pinned && coarser;
  const PriceResult& time_base = time_on_coarser ? *coarser : coarse;
  // The time levels' seconds are measured together and shared by point-steps.
  const auto t0 = std::chrono::steady_clock::now();
  const AxisErrorEstimate time =
      time_estimate(solver, product, on_grid(options, time_on_coarser ? 0.25 : 0.5, r.nt), time_base);
  const double time_seconds = seconds_since(t0);
  double steps = 0;
  for (std::size_t i = 1; i < time.m.size(); ++i) steps += time.m[i];
  const std::size_t sub_steps = time_base.time_steps - time_base.nt;  // the knock-in's, the same at every nt
  for (std::size_t i = 1; i < time.m.size(); ++i)
    acc.pricings.push_back({"time", time_base.shape, static_cast<std::size_t>(time.m[i]) + sub_steps, time.prices[i],
                            time_seconds * time.m[i] / steps});
  acc.time = time_bound(time);
  return time_seconds;
}

// A daily knock-in's sub-steps make the price's change with its steps irregular (book-s3-00017 at
// n = 144: 1.48 bp off at one step a day, 1.14 at two), and levels in nt on n/4 gave book-s3-00024
// a time part of 0.17 bp at n = 424 where it was 0.6 bp off. From twice the default's nodes the
// coarser grid is priced again at four times the steps (at most a quarter of the sub-steps'
// first-order error left) and the time part is twice the change. Below, the levels stay: their
// bars held at the default (docs/accuracy.md), els-3a-stepdown's 24 nodes at n = 96 changed by
// 4 bp at four times the steps where it was 0.4 bp off, and a book would pass 3x (3.14-3.18x).
constexpr int kDailyTimeRefinement = 4;
constexpr double kDailyTimeCover = 2.0;

bool daily_time_refined(const Product& product, int n) {
  return product.knocks_in_daily() && n >= 2 * default_nodes(product);
}

double add_daily_time_part(const SolverInfo& solver, const Product& product, const SolverOptions& options,
                           const PriceResult& r, const PriceResult& coarse, const std::optional<PriceResult>& coarser,
                           Accuracy& acc) {
  const PriceResult& base = coarser ? *coarser : coarse;
  const PriceResult finer =
      level(solver, product, options, coarser ? 0.25 : 0.5, kDailyTimeRefinement * r.nt, "time", acc);
  acc.time = kDailyTimeCover * std::abs(base.price - finer.price);
  return finer.seconds;
}

// The bar of Richardson's value r: space from the coarser pair, time, and the domain on the
// coarser grid, unless the S_max rule leaves the price nothing to truncate (truncation_negligible:
// the level took 9 % of a two-asset book's seconds to find 1e-11 bp).
void add_bound(const SolverInfo& solver, const Product& product, const SolverOptions& options, PriceResult& r,
               const PriceResult& coarse) {
  Accuracy& acc = *r.accuracy;
  const std::optional<PriceResult> coarser = coarser_level(solver, product, options, r.nt, acc);
  acc.erratic = !coarser || erratic(acc, coarser->price);
  acc.space = !coarser       ? std::abs(acc.fine - acc.coarse)
              : acc.erratic ? erratic_space(acc.fine, acc.coarse, coarser->price)
                            : ordered_space(product, acc, r.price, coarser->price);
  const double time_seconds = daily_time_refined(product, options.grid.n)
                                  ? add_daily_time_part(solver, product, options, r, coarse, coarser, acc)
                                  : add_time_levels(solver, product, options, r, coarse, coarser, acc);
  const auto t0 = std::chrono::steady_clock::now();
  acc.truncation_priced = !truncation_negligible(product, options.grid);
  if (acc.truncation_priced) {
    const PriceResult& base = coarser ? *coarser : coarse;
    const double truncation = truncation_estimate(solver, product, on_grid(options, coarser ? 0.25 : 0.5, r.nt), base);
    acc.pricings.push_back({"domain", base.shape, base.time_steps, base.price + truncation, seconds_since(t0)});
    acc.truncation = std::abs(truncation);
  }
  acc.bound = acc.space + acc.time + acc.truncation;
  r.seconds += (coarser ? coarser->seconds : 0.0) + time_seconds + seconds_since(t0);
}

// How many times a search doubles n while a try's levels show no order (erratic): such a bar
// says nothing of how the error falls, and the n^-2 rule from it asked a three-asset note for
// n = 500 where n = 200 was within 1 bp (docs/accuracy.md).
constexpr int kErraticDoublings = 2;

// Tries after the chosen grid while its bar misses the target: a second only where the first
// retry's bar fell below this fraction of the chosen grid's.
constexpr int kRetries = 2;
constexpr double kRetryGain = 0.75;

// The nodes that bring `now` (at n) to `goal`, the error taken to fall as n^-2 (the
// extrapolated value's usually falls faster: the grid errs on the fine side), a multiple of 4.
int nodes_for(int n, double now, double goal) {
  const double want = n * std::sqrt(std::max(1.0, now / goal));
  return std::min(kMaxNodes, 4 * static_cast<int>(std::ceil(want / 4.0)));
}

// The Richardson value and the coarse pricing behind it (the error bar prices from it again).
struct Pair {
  PriceResult value, coarse;
};

// On CPU threads the two grids price at once, the threads shared by their work (a CPU variant's
// price does not depend on its thread count): on 2 cores a small grid's steps gain little from a
// second thread (the sample ELS at n = 144: 0.41-0.44 s on one thread or two), so one thread each
// beats one grid after the other. Where the variant's rule sets the steps from n, the coarse grid
// is given the fine one's (a stability bound depends on the mesh: then one after the other).
bool side_by_side(const SolverInfo& solver, const SolverOptions& options) {
  const bool cpu = options.device.is_auto ? !solver.supports(Device::Kind::Cuda) : options.device.is_cpu();
  return cpu && resolved_threads(options.device) >= 2 && solver.stepping.rule == TimeStepping::Rule::PerYear;
}

std::pair<PriceResult, PriceResult> fine_and_coarse(const SolverInfo& solver, const Product& product,
                                                    SolverOptions options, Accuracy& acc) {
  if (!side_by_side(solver, options)) {
    PriceResult fine = price_with(solver, product, options);
    acc.pricings.push_back(pricing("fine", fine));
    PriceResult coarse = level(solver, product, options, 0.5, fine.nt, "coarse", acc);
    return {std::move(fine), std::move(coarse)};
  }
  const int threads = resolved_threads(options.device);
  const double share = 1.0 / (1 << product.dimension());  // the coarse grid's work over the fine one's
  const int coarse_threads = std::max(1, static_cast<int>(std::lround(threads * share / (1 + share))));
  options.grid.nt = options.grid.nt.value_or(steps_per_year_rule(product, options.grid.n));
  SolverOptions for_coarse = options;
  for_coarse.device.threads = coarse_threads;
  options.device.threads = threads - coarse_threads;
  Accuracy coarse_acc;
  std::atomic<bool> unwanted{false};
  auto pending = std::async(std::launch::async, [&] {
    const StopWhenSet stop(unwanted);
    return level(solver, product, for_coarse, 0.5, static_cast<std::size_t>(*options.grid.nt), "coarse", coarse_acc);
  });
  PriceResult fine;
  try {
    fine = price_with(solver, product, options);
  } catch (...) {
    // A fine grid refused (memory, time) leaves its coarse grid unwanted: stopped, not marched to
    // its end before the refusal is said (a three-asset target's coarse n = 356 was killed after
    // ten minutes of it).
    unwanted = true;
    pending.wait();
    throw;
  }
  PriceResult coarse = pending.get();
  acc.pricings.push_back(pricing("fine", fine));
  acc.pricings.push_back(coarse_acc.pricings.back());
  fine.threads = coarse.threads = threads;
  return {std::move(fine), std::move(coarse)};
}

Pair extrapolated_pair(const SolverInfo& solver, const Product& product, const SolverOptions& options) {
  Accuracy acc;
  acc.n = options.grid.n;
  const auto t0 = std::chrono::steady_clock::now();
  auto [fine, coarse] = fine_and_coarse(solver, product, options, acc);
  const double wall = seconds_since(t0);  // side by side, less than the two pricings' seconds
  acc.fine = fine.price;
  acc.coarse = coarse.price;
  add_up_cost(acc, 0);
  PriceResult r = fine;
  const double w = richardson_weight(product);
  r.price = richardson(fine.price, coarse.price, w);
  r.delta = richardson_each(fine.delta, coarse.delta, w);
  r.gamma = richardson_each(fine.gamma, coarse.gamma, w);
  r.cross_gamma = richardson_each(fine.cross_gamma, coarse.cross_gamma, w);
  r.seconds = wall;
  r.peak_host_bytes = std::max(fine.peak_host_bytes, coarse.peak_host_bytes);
  r.accuracy = std::move(acc);
  return {std::move(r), std::move(coarse)};
}

}  // namespace

double richardson(double fine, double coarse, double weight) { return fine + weight * (fine - coarse); }

// At the default's nodes and one step a day the levels of a note with a daily knock-in to come fall
// faster than n^-2: (P(n/2) - P(n)) / (P(n) - P(2n)) had a median of 4.30 over the 54 such notes of
// the issued book of seed 3 (n = 144, two assets) and 4.19 over 25 one-asset notes (n = 400), an
// order of 2.1, so 1/3 took off too much (R(144, 72) 0.16 bp low on average on the 64 notes of seed
// 5, 56 of them within 0.5 bp; 64 with 1 / 3.3: docs/accuracy.md, "Richardson's weight"). Three
// assets at 80 nodes show no such order (their levels are erratic) and keep 1/3: with 1 / 3.3
// two of seed 7's were 2.6-2.8 bp off.
constexpr double kDailyKnockInLevelRatio = 4.3;

double richardson_weight(const Product& product) {
  const bool faster = product.knocks_in_daily() && product.dimension() < 3;
  return faster ? 1.0 / (kDailyKnockInLevelRatio - 1.0) : 1.0 / 3.0;
}

void require_target_met(const Accuracy& a) {
  if (!a.target || *a.bound <= *a.target) return;
  std::ostringstream msg;
  msg << "the error bar " << *a.bound << " exceeds the target " << *a.target << " (" << a.target_text << ") at n = " << a.n;
  throw SolverError(SolverError::Kind::Unconverged, msg.str());
}

GridOptions on_default_grid(GridOptions grid, const Product& product) {
  grid.n = default_nodes(product);
  grid.axis_nodes.clear();
  grid.nt.reset();
  return grid;
}

std::string default_grid_words() {
  return "Richardson's value from " + std::to_string(default_nodes(1)) + ", " + std::to_string(default_nodes(2)) +
         " or " + std::to_string(default_nodes(3)) + " nodes by the note's assets (twice as many for two or three " +
         "assets with no daily knock-in to come), and half as many";
}

// Mirrors add_bound's choices: the coarser grid where the builder takes it, the time levels as
// add_time_levels and time_estimate take them (or add_daily_time_part's), the domain level.
std::vector<PlannedLevel> extrapolated_levels(const Product& product, const GridOptions& grid, bool with_bar,
                                              const TimeStepping& stepping) {
  const auto on = [&](double factor, int steps) {
    GridOptions g = scaled_nodes(grid, factor);
    g.nt = std::max(steps, 1);
    return g;
  };
  const auto at = [&](double factor, int steps, double extension = 1.0) {
    GridOptions g = on(factor, steps);
    g.domain_extension = extension;
    return PlannedLevel{factor * grid.n, planned_work(product, g, stepping)};
  };
  const Problem fine = plan_problem(product, grid, stepping);
  const int nt = static_cast<int>(fine.time.base_steps());
  const double fine_work = static_cast<double>(fine.points) * fine.time.march_steps();
  std::vector<PlannedLevel> levels = {{static_cast<double>(grid.n), fine_work}, at(0.5, nt)};
  if (!with_bar) return levels;
  bool coarser = true;
  try {
    levels.push_back(at(0.25, nt));
  } catch (const std::exception&) {
    coarser = false;  // coarser_level: the bar goes on without it
  }
  if (daily_time_refined(product, grid.n)) {
    levels.push_back(at(coarser ? 0.25 : 0.5, kDailyTimeRefinement * nt));
  } else {
    const bool pinned = nt < 2 || steps_pinned(product, on(0.5, nt / 2), nt, stepping);
    const double factor = pinned && coarser ? 0.25 : 0.5;
    // time_estimate's halvings, from the steps its base grid actually took at nt
    const auto base_steps = [&](int k) {
      return static_cast<int>(plan_problem(product, on(factor, k), stepping).time.base_steps());
    };
    const int base = base_steps(nt);
    std::size_t added = 0;
    for (int k = base / 2, last = base; added < 2 && k >= 1; k /= 2, ++added) {
      if (steps_pinned(product, on(factor, k), last, stepping)) break;
      levels.push_back(at(factor, k));
      last = base_steps(k);
    }
    if (added == 0) levels.push_back(at(factor, 2 * base));
  }
  if (!truncation_negligible(product, grid)) levels.push_back(at(coarser ? 0.25 : 0.5, nt, kDomainExtension));
  return levels;
}

// A grid the builder refuses (the pricing says why) leaves the levels' share of nodes alone.
double extrapolated_work(const Product& product, const GridOptions& grid, bool with_bar) {
  try {
    const std::vector<PlannedLevel> levels = extrapolated_levels(product, grid, with_bar, {});
    double work = 0;
    for (const PlannedLevel& l : levels) work += l.work;
    return work / levels.front().work;
  } catch (const std::exception&) {
    const double half = std::pow(0.5, product.dimension()), quarter = half * half;
    return with_bar ? 1 + half + quarter + half + quarter : 1 + half;
  }
}

std::vector<PlannedLevel> target_levels_at_least(const Product& product, const GridOptions& grid,
                                                 const TimeStepping& stepping) {
  GridOptions g = grid;
  g.axis_nodes.clear();
  g.n = pilot_nodes(product.dimension());
  std::vector<PlannedLevel> levels = extrapolated_levels(product, g, true, stepping);
  g.n *= 2;
  for (const PlannedLevel& l : extrapolated_levels(product, g, true, stepping)) levels.push_back(l);
  return levels;
}

int default_nodes(int dimension) { return dimension == 1 ? 400 : dimension == 2 ? 144 : 80; }

// Its n/4 level still has a few nodes per spread.
int pilot_nodes(int dimension) { return dimension == 1 ? 64 : 48; }

// Such a note marches the solvers' n/2 steps a year, a tenth of a daily knock-in's step a day at
// the same nodes, and its error is the coarse grid's, before its asymptotic range: R(144, 72) was
// within 0.5 bp of its Monte Carlo price on 42 of 59 knocked-in two-asset notes (worst 5.7 bp),
// R(288, 144) on 59 of 59 (worst 0.46 bp); three assets R(80, 40) on 8 of 16 (worst 17 bp),
// R(160, 80) on 15 of 16 (worst 1.2 bp; docs/accuracy.md). The extra nodes cost a book of daily
// notes a few percent; one asset's 400 nodes need none.
int default_nodes(const Product& product) {
  const int n = default_nodes(product.dimension());
  return product.steps_span_days() && product.dimension() >= 2 ? 2 * n : n;
}

PriceResult price_extrapolated(const SolverInfo& solver, const Product& product, const SolverOptions& options) {
  return extrapolated_pair(solver, product, options).value;
}

PriceResult price_with_bound(const SolverInfo& solver, const Product& product, const SolverOptions& options) {
  Pair pair = extrapolated_pair(solver, product, options);
  add_bound(solver, product, options, pair.value, pair.coarse);
  add_up_cost(*pair.value.accuracy, 0);
  return pair.value;
}

PriceResult price_to_target(const SolverInfo& solver, const Product& product, SolverOptions options,
                            const ErrorTarget& target) {
  const double goal = target.in_price_units(product);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<GridPricing> spent;
  const auto try_grid = [&](const std::string& role_prefix, int n) {
    options.grid.n = n;
    options.grid.axis_nodes.clear();
    PriceResult r = price_with_bound(solver, product, options);
    for (GridPricing& g : r.accuracy->pricings) spent.push_back({role_prefix + g.role, g.shape, g.time_steps, g.price, g.seconds});
    return r;
  };
  // A grid the machine refuses (memory, --max-seconds) is said as the target's: which grid the
  // target asked for and from what bar (none: the pilot), so that a looser target is the evident
  // way out.
  const auto try_chosen = [&](const std::string& role_prefix, int n, const Accuracy* from) {
    try {
      return try_grid(role_prefix, n);
    } catch (const SolverError& e) {
      if (e.kind() != SolverError::Kind::OutOfMemory && e.kind() != SolverError::Kind::TooMuchWork) throw;
      std::ostringstream msg;
      msg << "--target-error " << target.text << " asks for n = " << n << " per axis (";
      if (from)
        msg << "from the bar " << *from->bound << " at n = " << from->n
            << (from->erratic ? ", its levels erratic" : "");
      else
        msg << "the search's pilot";
      msg << "): " << e.what() << ", or a looser target";
      throw SolverError(e.kind(), msg.str());
    }
  };
  // A pilot whose grids cannot carry the note (a price beyond its bounds, a cell too wide at the
  // spot: book-s3-00012's coarse 24 nodes priced above its discounted redemption) says nothing of
  // the grid to choose: doubled, up to the default's nodes, before the note is refused.
  const auto pilot = [&] {
    for (int n = pilot_nodes(product.dimension());; n *= 2) {
      try {
        return try_chosen("pilot ", n, nullptr);
      } catch (const SolverError& e) {
        const bool uncarried = e.kind() == SolverError::Kind::Unconverged || e.kind() == SolverError::Kind::Unsupported;
        if (!uncarried || 2 * n > default_nodes(product)) throw;
      }
    }
  };
  PriceResult r = pilot();
  // The pilot only chooses: its time part comes from a grid of 24 nodes, where the min call's time
  // error was half of what it is at 48 (bar 1.2e-3 against an actual 2.0e-3), so the price is
  // always made on a grid at least twice the pilot's.
  bool chosen = false;
  for (int d = 0; d < kErraticDoublings && r.accuracy->erratic && (!chosen || *r.accuracy->bound > goal); ++d) {
    r = try_chosen("doubled ", 2 * r.accuracy->n, &*r.accuracy);
    chosen = true;
  }
  // Space and time errors fall with n (nt follows n unless the dates pin it); the truncation does
  // not: what it leaves of the target is the others' share.
  const double share = std::max(0.5 * goal, goal - 2 * r.accuracy->truncation);
  double tried_bar = 0;
  if (!chosen || *r.accuracy->bound > goal) {
    const int least = chosen ? 0 : 2 * r.accuracy->n;
    r = try_chosen("", std::max(least, nodes_for(r.accuracy->n, r.accuracy->space + r.accuracy->time, 0.7 * share)),
                   &*r.accuracy);
  }
  for (int k = 0; k < kRetries && *r.accuracy->bound > goal; ++k) {
    if (k > 0 && *r.accuracy->bound >= kRetryGain * tried_bar) break;
    tried_bar = *r.accuracy->bound;
    // Steps pinned by the dates do not follow n: where time holds more than half the target,
    // twice the steps (the rule's own nt otherwise, which follows n); four times where the daily
    // knock-in's time part is measured at four times (twice moved its error little).
    const bool more_steps = r.accuracy->time > 0.5 * goal;
    const double space_time = r.accuracy->space + (more_steps || options.grid.nt ? 0.0 : r.accuracy->time);
    const int next = nodes_for(r.accuracy->n, space_time, 0.5 * share);
    const std::size_t more = daily_time_refined(product, next) ? kDailyTimeRefinement : 2;
    if (more_steps) options.grid.nt = static_cast<int>(more * r.nt);
    r = try_chosen(k ? "retry 2 " : "retry ", next, &*r.accuracy);
  }
  Accuracy& acc = *r.accuracy;
  const std::size_t fine = spent.size() - acc.pricings.size();  // the last try's "fine" pricing
  acc.pricings = std::move(spent);
  add_up_cost(acc, fine);
  acc.target = goal;
  acc.target_text = target.text;
  r.seconds = seconds_since(t0);  // the whole search: what a price to this accuracy costs
  return r;
}

}  // namespace elsbench
