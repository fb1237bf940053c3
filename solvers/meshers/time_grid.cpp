#include "solvers/meshers/time_grid.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace elsbench {
namespace {

TimeGrid fill(const std::vector<double>& bounds, const std::vector<std::size_t>& per_interval) {
  TimeGrid g;
  g.tau.push_back(0.0);
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    const double a = bounds[k], b = bounds[k + 1];
    const std::size_t m = per_interval[k];
    for (std::size_t j = 1; j <= m; ++j)
      g.tau.push_back(j == m ? b : a + (b - a) * static_cast<double>(j) / static_cast<double>(m));
  }
  g.damped.assign(g.steps(), 0);
  return g;
}

}  // namespace

double TimeGrid::march_steps() const {
  double damped_steps = 0;
  for (std::uint8_t d : damped) damped_steps += d;
  return static_cast<double>(steps()) - 0.5 * damped_steps;
}

double TimeGrid::max_dt() const {
  double m = 0;
  for (std::size_t i = 0; i < steps(); ++i) m = std::max(m, dt(i));
  return m;
}

void split_after(TimeGrid& grid, const std::vector<double>& taus, int substeps, double fraction) {
  if (substeps < 1 || !(fraction > 0 && fraction < 1)) throw std::invalid_argument("split_after: bad sub-steps");
  std::vector<double> sorted = taus;
  std::sort(sorted.begin(), sorted.end());
  TimeGrid out;
  out.tau.push_back(grid.tau[0]);
  out.sub_steps = grid.sub_steps;
  std::size_t k = 0;
  for (std::size_t j = 0; j < grid.steps(); ++j) {
    const double a = grid.tau[j], b = grid.tau[j + 1];
    while (k < sorted.size() && sorted[k] < a - 1e-9) ++k;
    if (k < sorted.size() && std::abs(sorted[k] - a) <= 1e-9) {
      for (int i = 1; i <= substeps; ++i) {
        out.tau.push_back(a + (b - a) * fraction * i / substeps);
        out.damped.push_back(1);
      }
      out.sub_steps += static_cast<std::size_t>(substeps);
    }
    out.tau.push_back(b);
    out.damped.push_back(grid.damped[j]);
  }
  grid = std::move(out);
}

std::vector<double> event_boundaries(double maturity, std::vector<double> event_taus) {
  // Dates closer than this are one date: 1e-10 years is about 3 ms.
  constexpr double kSame = 1e-10;
  std::vector<double> b{0.0, maturity};
  for (double t : event_taus)
    if (t > kSame && t < maturity - kSame) b.push_back(t);
  std::sort(b.begin(), b.end());
  std::vector<double> merged;
  for (double t : b)
    if (merged.empty() || t - merged.back() > kSame) merged.push_back(t);
  merged.back() = maturity;
  return merged;
}

TimeGrid make_time_grid(double maturity, std::vector<double> event_taus, int total_steps) {
  if (total_steps < 1) throw std::invalid_argument("the number of time steps must be >= 1");
  const auto bounds = event_boundaries(maturity, std::move(event_taus));
  const std::size_t intervals = bounds.size() - 1;
  std::vector<std::size_t> per(intervals, 1);
  std::vector<double> remainder(intervals, 0.0);
  std::size_t used = 0;
  for (std::size_t k = 0; k < intervals; ++k) {
    const double share = (bounds[k + 1] - bounds[k]) / maturity * total_steps;
    per[k] = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(share)));
    remainder[k] = share - std::floor(share);
    used += per[k];
  }
  // Largest remainders get the steps that are left, so the total is exactly total_steps
  // whenever there are at least as many steps as intervals.
  std::vector<std::size_t> order(intervals);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t i = 0; used < static_cast<std::size_t>(total_steps); ++i, ++used)
    ++per[order[i % intervals]];
  return fill(bounds, per);
}

namespace {

// Steps per interval between events so that none is longer than max_dt.
std::vector<double> steps_within(const std::vector<double>& bounds, double max_dt) {
  if (!(max_dt > 0)) throw std::invalid_argument("max_dt must be > 0");
  std::vector<double> per(bounds.size() - 1);
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) per[k] = std::max(1.0, std::ceil((bounds[k + 1] - bounds[k]) / max_dt));
  return per;
}

}  // namespace

TimeGrid make_time_grid_max_dt(double maturity, std::vector<double> event_taus, double max_dt) {
  const auto bounds = event_boundaries(maturity, std::move(event_taus));
  const std::vector<double> per = steps_within(bounds, max_dt);
  return fill(bounds, std::vector<std::size_t>(per.begin(), per.end()));
}

double count_steps_max_dt(double maturity, std::vector<double> event_taus, double max_dt) {
  const std::vector<double> per = steps_within(event_boundaries(maturity, std::move(event_taus)), max_dt);
  return std::accumulate(per.begin(), per.end(), 0.0);
}

}  // namespace elsbench
