#pragma once
// What a Monte Carlo path steps through, built once on the host and shared by the CPU and CUDA
// engines: the dates (the note's events' and, with a knock-in, the daily grid; only maturity for a
// validation product), each step's exact log-space coefficients of correlated GBM, and each date's
// events (note_events.hpp), whose rule on a path is pair_path.hpp's on_path().
#include <span>
#include <vector>

#include "products/event_kind.hpp"
#include "products/product.hpp"

namespace elsbench {

// A note's event as a path meets it: NoteEvent's numbers, with its barrier's log for the rules
// that compare log performance.
struct PathEvent {
  EventKind kind = EventKind::Autocall;
  double barrier = 0;      // the performance level of the event's side
  double log_barrier = 0;  // log(barrier), or 0 for a barrier of 0 (every path)
  double amount = 0;       // a redemption or a coupon, in price units
  bool in_payoff = false;  // on maturity: NoteEvent's (an autocall there is the redemption at maturity)
  bool accrues = false;    // NoteEvent's: it also pays the dates missed since the last paid
};

struct PathPlan {
  int dim = 0;
  int steps = 0;
  std::vector<double> time;      // [step]: t_1 .. t_n (t_0 = 0); the last is maturity
  std::vector<double> discount;  // [step]: exp(-r t)
  // x_a = log(S_a / reference_a) moves by drift + sum_b shock_ab z_b, z independent normals.
  std::vector<double> drift;     // [step][asset]: (r - q_a - vol_a^2 / 2) dt
  std::vector<double> shock;     // [step][asset][asset]: vol_a sqrt(dt) L_ab, L lower Cholesky factor
  std::vector<double> bridge_rate;  // [step][asset]: 2 / (vol_a^2 dt), crossing probability
  // Each step's events, step by step and within a date in the order a path meets them: the
  // reverse of event_kind.hpp's, which is the backward march's.
  std::vector<PathEvent> events;
  std::vector<int> step_events;  // [step + 1]: step s's events are events[step_events[s] .. step_events[s + 1])
  std::vector<double> start;     // [asset]: log(spot / reference)
  double log_barrier = 0;        // log of the knock-in barrier, in performance units (the bridge's)
  bool continuous = false;       // Brownian-bridge crossing between dates
  bool starts_knocked_in = false;

  double drift_at(int step, int a) const { return drift[static_cast<std::size_t>(step * dim + a)]; }
  double shock_at(int step, int a, int b) const {
    return shock[static_cast<std::size_t>((step * dim + a) * dim + b)];
  }
  std::span<const PathEvent> events_at(int step) const {
    const auto s = static_cast<std::size_t>(step);
    return {events.data() + step_events[s], events.data() + step_events[s + 1]};
  }
};

PathPlan make_path_plan(const Product& p);

}  // namespace elsbench
