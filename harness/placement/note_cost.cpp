#include "harness/placement/note_cost.hpp"

#include <algorithm>
#include <numeric>

#include "solvers/contract/cost_model.hpp"

namespace elsbench {
namespace {

// A grid the builder refuses still has a place in the queue (its pricing fails fast): points x
// about n steps, or a step a day under daily monitoring.
double rough_cost(const Product& product, const GridOptions& grid) {
  double steps = grid.nt ? *grid.nt : grid.n;
  if (product.knocks_in_daily())
    steps = std::max(steps, product.maturity() * product.els().knock_in.days_per_year);
  return grid.points(product.dimension()) * steps;
}

}  // namespace

double note_cost(const Product& product, const GridOptions& grid, const TimeStepping& stepping) {
  try {
    return planned_work(product, grid, stepping);
  } catch (const std::exception&) {
    return rough_cost(product, grid);
  }
}

std::vector<std::vector<std::size_t>> cost_balanced_shares(const std::vector<double>& costs, int parts) {
  std::vector<std::vector<std::size_t>> shares(static_cast<std::size_t>(std::max(parts, 1)));
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  std::vector<double> load(shares.size(), 0.0);
  for (std::size_t i : order) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[least].push_back(i);
    load[least] += costs[i];
  }
  for (auto& s : shares) std::sort(s.begin(), s.end());
  return shares;
}

}  // namespace elsbench
