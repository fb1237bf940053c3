#include "reference/path_plan.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "products/note_events.hpp"

namespace elsbench {
namespace {

// Dates closer than this are one date: autocall times and day counts are decimal inputs.
constexpr double kSameDate = 1e-9;

struct Date {
  double time;
  int autocall;    // index into els.autocall, or -1
  bool monitored;  // a daily knock-in observation
  bool coupon;     // a periodic coupon date
};

// The date at time t in `dates`, added if it is not there yet.
Date& date_at(std::vector<Date>& dates, double t) {
  auto same = std::find_if(dates.begin(), dates.end(), [t](const Date& d) { return std::abs(d.time - t) < kSameDate; });
  if (same != dates.end()) return *same;
  return dates.emplace_back(Date{t, -1, false, false});
}

// The dates a path must stop at: the note's events (note_events.hpp) and, with a knock-in to come,
// the daily grid. Continuous monitoring steps on that grid too, unobserved, so that the per-asset
// bridge probabilities of a multi-asset note are taken over short intervals (see pair_path.hpp,
// bridge_survival); a note already knocked in needs no knock-in observation at all. A lizard is
// observed on the monitored steps up to its date (PathPlan::lizard_step).
std::vector<Date> path_dates(const Product& p, const std::vector<NoteEvent>& events) {
  if (!p.is_els()) return {{p.maturity(), -1, false, false}};
  std::vector<Date> dates;
  for (const NoteEvent& e : events)
    if (e.kind == EventKind::Autocall) dates.push_back({e.time, e.autocall, false, false});
  for (const NoteEvent& e : events)
    if (e.kind == EventKind::Coupon) date_at(dates, e.time).coupon = true;
  if (p.can_knock_in()) {
    Product on_daily_grid = p;
    on_daily_grid.els.knock_in.monitoring = Monitoring::Daily;
    for (double t : on_daily_grid.monitoring_dates()) date_at(dates, t);
  }
  for (const NoteEvent& e : events)
    if (e.kind == EventKind::KnockIn) date_at(dates, e.time).monitored = true;
  std::sort(dates.begin(), dates.end(), [](const Date& a, const Date& b) { return a.time < b.time; });
  return dates;
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
  const std::vector<Date> dates = path_dates(p, events);
  plan.steps = static_cast<int>(dates.size());
  const Eigen::MatrixXd chol = cholesky_factor(p);
  double previous = 0;
  for (const Date& d : dates) {
    const double dt = d.time - previous;
    previous = d.time;
    plan.time.push_back(d.time);
    plan.discount.push_back(std::exp(-p.rate * d.time));
    for (int a = 0; a < plan.dim; ++a) {
      const Underlying& u = p.assets[static_cast<std::size_t>(a)];
      plan.drift.push_back((p.rate - u.div_yield - 0.5 * u.vol * u.vol) * dt);
      for (int b = 0; b < plan.dim; ++b) plan.shock.push_back(u.vol * std::sqrt(dt) * chol(a, b));
      plan.bridge_rate.push_back(2.0 / (u.vol * u.vol * dt));
    }
    plan.autocall.push_back(d.autocall);
    plan.monitored.push_back(d.monitored ? 1 : 0);
    plan.coupon.push_back(d.coupon ? 1 : 0);
  }
  for (const auto& u : p.assets) plan.start.push_back(std::log(u.spot / u.reference));
  if (p.is_els()) {
    plan.log_barrier = std::log(p.els.knock_in.barrier);
    plan.continuous = !p.els.knocked_in && p.els.knock_in.monitoring == Monitoring::Continuous;
    plan.starts_knocked_in = p.els.knocked_in;
    for (const NoteEvent& e : events)
      if (e.kind == EventKind::LizardRedeem) {
        plan.lizard_step = static_cast<int>(std::find(plan.time.begin(), plan.time.end(), e.time) - plan.time.begin());
        plan.log_lizard = std::log(p.els.lizard.barrier);
      }
  }
  return plan;
}

}  // namespace elsbench
