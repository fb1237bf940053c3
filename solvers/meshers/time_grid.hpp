#pragma once
// Time grid in time-to-maturity tau = T - t, marched from tau = 0 (the payoff) to tau = T.
// Every event date is a grid node exactly; steps are spread over the intervals between events.
#include <cstdint>
#include <vector>

namespace elsbench {

struct TimeGrid {
  std::vector<double> tau;         // nodes, tau[0] = 0, tau.back() = T
  std::vector<std::uint8_t> damped;  // per step: 1 if it is a damping (implicit) step
  std::size_t sub_steps = 0;       // steps split_after added
  std::size_t steps() const { return tau.size() - 1; }
  // The steps before split_after's: the nt that gives this grid.
  std::size_t base_steps() const { return steps() - sub_steps; }
  double dt(std::size_t step) const { return tau[step + 1] - tau[step]; }
  double max_dt() const;
  // What the march costs in steps of the scheme: a damped step solves one implicit stage where HV
  // solves two, so it counts half (a daily knock-in's sub-steps are two of its three steps a day).
  double march_steps() const;
};

// `event_taus`: interior event times in tau (0 < tau < T), any order, duplicates allowed.
// total_steps: spread proportionally to interval length, at least one per interval.
TimeGrid make_time_grid(double maturity, std::vector<double> event_taus, int total_steps);
// Every step no longer than max_dt (the explicit solver's stable choice).
TimeGrid make_time_grid_max_dt(double maturity, std::vector<double> event_taus, double max_dt);
// How many steps that grid has, without building it (a count of 1e12 is a refusal, not an array).
double count_steps_max_dt(double maturity, std::vector<double> event_taus, double max_dt);

// Opens the interval after each of `taus` (nodes of the grid) with `substeps` damped steps that
// together take `fraction` of the step that followed the node; the other steps are unchanged.
void split_after(TimeGrid& grid, const std::vector<double>& taus, int substeps, double fraction);

// Interval boundaries, sorted and merged: 0, events..., T.
std::vector<double> event_boundaries(double maturity, std::vector<double> event_taus);

}  // namespace elsbench
