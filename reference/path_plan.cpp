#include "reference/path_plan.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "products/note_events.hpp"

namespace elsbench {
namespace {

// Dates closer than this are one date: autocall times and day counts are decimal inputs.
constexpr double kSameDate = 1e-9;

// The time at t in `times`, added if it is not there yet.
void add_time(std::vector<double>& times, double t) {
  if (std::none_of(times.begin(), times.end(), [t](double d) { return std::abs(d - t) < kSameDate; }))
    times.push_back(t);
}

// The dates a path must stop at: its events' and, with a knock-in to come, the daily grid.
// Continuous monitoring steps on that grid too, unobserved, so that the per-asset bridge
// probabilities of a multi-asset note are taken over short intervals (see pair_path.hpp,
// bridge_survival).
std::vector<double> path_times(const Product& p, const std::vector<NoteEvent>& events) {
  if (!p.is_els()) return {p.maturity()};
  std::vector<double> times;
  for (const NoteEvent& e : events) add_time(times, e.time);
  if (p.can_knock_in()) {
    Product on_daily_grid = p;
    on_daily_grid.els().knock_in.monitoring = Monitoring::Daily;
    for (double t : on_daily_grid.monitoring_dates()) add_time(times, t);
  }
  std::sort(times.begin(), times.end());
  return times;
}

// The events step by step, each date's in the order a path meets them (forward in time: the
// reverse of the backward march's, EventKind's).
void place_events(PathPlan& plan, const std::vector<NoteEvent>& events) {
  std::vector<std::pair<int, std::size_t>> at;  // (step, index into events)
  for (std::size_t i = 0; i < events.size(); ++i) {
    const double t = events[i].time;
    const auto step = std::lower_bound(plan.time.begin(), plan.time.end(), t - kSameDate) - plan.time.begin();
    at.emplace_back(static_cast<int>(step), i);
  }
  const auto path_order = [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return static_cast<int>(events[a.second].kind) > static_cast<int>(events[b.second].kind);
  };
  std::stable_sort(at.begin(), at.end(), path_order);
  plan.step_events.assign(static_cast<std::size_t>(plan.steps) + 1, 0);
  for (const auto& [step, i] : at) {
    const NoteEvent& e = events[i];
    plan.events.push_back({e.kind, e.barrier, e.barrier > 0 ? std::log(e.barrier) : 0.0, e.amount, e.in_payoff, e.accrues});
    ++plan.step_events[static_cast<std::size_t>(step) + 1];
  }
  for (std::size_t s = 1; s < plan.step_events.size(); ++s) plan.step_events[s] += plan.step_events[s - 1];
}

Eigen::MatrixXd cholesky_factor(const Product& p) {
  const int n = p.dimension();
  Eigen::MatrixXd c(n, n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) c(i, k) = p.correlation[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)];
  return Eigen::LLT<Eigen::MatrixXd>(c).matrixL();
}

}  // namespace

PathPlan make_path_plan(const Product& p) {
  PathPlan plan;
  plan.dim = p.dimension();
  const std::vector<NoteEvent> events = note_events(p);
  plan.time = path_times(p, events);
  plan.steps = static_cast<int>(plan.time.size());
  const Eigen::MatrixXd chol = cholesky_factor(p);
  double previous = 0;
  for (const double t : plan.time) {
    const double dt = t - previous;
    previous = t;
    plan.discount.push_back(std::exp(-p.rate * t));
    for (int a = 0; a < plan.dim; ++a) {
      const Underlying& u = p.assets[static_cast<std::size_t>(a)];
      plan.drift.push_back((p.rate - u.div_yield - 0.5 * u.vol * u.vol) * dt);
      for (int b = 0; b < plan.dim; ++b) plan.shock.push_back(u.vol * std::sqrt(dt) * chol(a, b));
      plan.bridge_rate.push_back(2.0 / (u.vol * u.vol * dt));
    }
  }
  place_events(plan, events);
  for (const auto& u : p.assets) plan.start.push_back(std::log(u.spot / u.reference));
  if (p.is_els()) {
    plan.log_barrier = std::log(p.els().knock_in.barrier);
    plan.continuous = !p.els().knocked_in && p.els().knock_in.monitoring == Monitoring::Continuous;
    plan.starts_knocked_in = p.els().knocked_in;
  }
  return plan;
}

}  // namespace elsbench
