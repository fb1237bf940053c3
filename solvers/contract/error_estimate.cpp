#include "solvers/contract/error_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "platform/solver_error.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

constexpr double kMinPlausibleOrder = 0.5, kMaxPlausibleOrder = 4.0;

// Explicit Euler is first order in time; Douglas with its explicit mixed term is too (README,
// Accuracy: observed 0.75 on the min call). Every other scheme here is second order.
double nominal_time_order(const std::string& scheme) { return scheme == "euler" || scheme == "douglas" ? 1.0 : 2.0; }

double order_to_use(const AxisErrorEstimate& a, double nominal) {
  if (a.observed_order && *a.observed_order >= kMinPlausibleOrder && *a.observed_order <= kMaxPlausibleOrder)
    return *a.observed_order;
  return nominal;
}

void finish(AxisErrorEstimate& a, double nominal) {
  if (a.m.size() >= 3)
    a.observed_order = observed_order({double(a.m[0]), a.prices[0]}, {double(a.m[1]), a.prices[1]},
                                      {double(a.m[2]), a.prices[2]});
  a.order = order_to_use(a, nominal);
  a.error = richardson_error({double(a.m[0]), a.prices[0]}, {double(a.m[1]), a.prices[1]}, a.order);
}

// A coarser (or finer) level's price outside its no-arbitrage bounds leaves no estimate: said as
// the estimate's, since the price being estimated was within them.
PriceResult level_price(const SolverInfo& solver, const Product& product, const SolverOptions& options) {
  try {
    return price_with(solver, product, options);
  } catch (const SolverError& e) {
    if (e.kind() != SolverError::Kind::Unconverged) throw;
    throw SolverError(e.kind(), std::string("on the error estimate's grid: ") + e.what());
  }
}

AxisErrorEstimate space_estimate(const SolverInfo& solver, const Product& product, SolverOptions options,
                                 const PriceResult& base) {
  AxisErrorEstimate a;
  a.m.push_back(options.grid.n);
  a.prices.push_back(base.price);
  options.grid.nt = static_cast<int>(base.time_steps);
  // Every axis's nodes halve together, so the largest (grid.n) stands for the grid's refinement.
  for (GridOptions g = scaled_nodes(options.grid, 0.5); a.m.size() < 3 && g.n < a.m.back(); g = scaled_nodes(g, 0.5)) {
    if (std::any_of(g.axis_nodes.begin(), g.axis_nodes.end(), [](int n) { return n < kMinNodes; }) || g.n < kMinNodes)
      break;
    options.grid = g;
    a.m.push_back(g.n);
    a.prices.push_back(level_price(solver, product, options).price);
  }
  if (a.m.size() < 2) throw std::invalid_argument("error estimate: n = " + std::to_string(a.m[0]) + " has no coarser grid");
  finish(a, 2.0);
  return a;
}

// Halves the steps while the grid lets it (a coarser grid that keeps more than 3/4 of the steps is
// pinned by its event dates); otherwise one grid of twice the steps.
AxisErrorEstimate time_estimate(const SolverInfo& solver, const Product& product, SolverOptions options,
                                const PriceResult& base) {
  AxisErrorEstimate a;
  const int steps = static_cast<int>(base.time_steps);
  a.m.push_back(steps);
  a.prices.push_back(base.price);
  for (int nt = steps / 2; a.m.size() < 3 && nt >= 1; nt /= 2) {
    options.grid.nt = nt;
    PriceResult r;
    try {
      r = level_price(solver, product, options);
    } catch (const SolverError& e) {
      if (e.kind() != SolverError::Kind::Unstable) throw;
      break;
    }
    if (4 * static_cast<int>(r.time_steps) > 3 * a.m.back()) break;
    a.m.push_back(static_cast<int>(r.time_steps));
    a.prices.push_back(r.price);
  }
  if (a.m.size() < 2) {
    options.grid.nt = 2 * steps;
    const PriceResult r = level_price(solver, product, options);
    a.m.push_back(static_cast<int>(r.time_steps));
    a.prices.push_back(r.price);
    a.refined = true;
  }
  finish(a, nominal_time_order(base.scheme));
  return a;
}

}  // namespace

std::optional<double> observed_order(const RefinementLevel& a, const RefinementLevel& b, const RefinementLevel& c) {
  const double near = b.price - a.price, far = c.price - b.price;
  if (near == 0 || far == 0 || (near > 0) != (far > 0)) return std::nullopt;
  // Levels a, b, c with a ratio r = a.m / b.m (about b.m / c.m): |far / near| = r^p.
  return std::log(far / near) / std::log(a.m / b.m);
}

double richardson_error(const RefinementLevel& a, const RefinementLevel& b, double p) {
  // P(m) = P* + C m^-p: a.price - b.price = C a.m^-p (1 - (a.m / b.m)^p).
  return (a.price - b.price) / (1.0 - std::pow(a.m / b.m, p));
}

void add_error_estimate(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base) {
  ErrorEstimate e;
  e.space = space_estimate(solver, product, options, base);
  e.time = time_estimate(solver, product, options, base);
  e.error = e.space.error + e.time.error;
  e.extrapolated = base.price - e.error;
  base.error_estimate = e;
}

}  // namespace elsbench
