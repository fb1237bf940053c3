#include "solvers/contract/risk_greeks.hpp"

#include <algorithm>

#include "products/product_bumps.hpp"
#include "solvers/contract/accuracy.hpp"
#include "solvers/contract/price.hpp"
#include "solvers/problem/grid_codec.hpp"

namespace elsbench {
namespace {

// The Greeks on one grid (options.grid, nt steps), theta against that grid's own price `at_base`.
RiskGreeks greeks_on(const SolverInfo& solver, const Product& product, SolverOptions options, double at_base,
                     std::size_t nt, const GreekBumps& bumps) {
  options.grid.nt = static_cast<int>(nt);
  const auto price = [&](const Product& p) { return price_with(solver, p, options).price; };
  RiskGreeks g;
  g.vol_bump = bumps.vol;
  g.rate_bump = bumps.rate;
  for (int i = 0; i < product.dimension(); ++i) {
    const double vol = product.assets[static_cast<std::size_t>(i)].vol;
    g.vega.push_back((price(with_vol(product, i, vol + bumps.vol)) - price(with_vol(product, i, vol - bumps.vol))) /
                     (2 * bumps.vol));
  }
  g.rho = (price(with_rate(product, product.rate + bumps.rate)) - price(with_rate(product, product.rate - bumps.rate))) /
          (2 * bumps.rate);
  // One step of the grid: the aged product on the same step size, one step fewer. Where the first
  // date comes sooner (a note observed in three days), half the time to it, on the same steps:
  // ageing past a date would price another note.
  const double step = product.maturity() / static_cast<double>(nt);
  const double first = product.is_els() ? product.els().autocall.front().time : product.maturity();
  g.theta_dt = std::min(step, 0.5 * first);
  options.grid.nt = static_cast<int>(nt) - (g.theta_dt < step ? 0 : 1);
  g.theta = (price(aged(product, g.theta_dt)) - at_base) / g.theta_dt;
  return g;
}

// A desk reads vega per vol point (0.01 of vol), rho per basis point and theta per calendar day.
void express_in(RiskGreeks& g, GreekUnits units) {
  g.units = units;
  if (units == GreekUnits::Model) return;
  for (double& v : g.vega) v *= 0.01;
  g.rho *= 1e-4;
  g.theta /= 365.0;
}

}  // namespace

GreekUnits parse_greek_units(const std::string& word) {
  if (word == "model") return GreekUnits::Model;
  if (word == "desk") return GreekUnits::Desk;
  throw std::invalid_argument("expected model or desk, got '" + word + "'");
}

const char* to_string(GreekUnits u) { return u == GreekUnits::Desk ? "desk" : "model"; }

const char* units_text(GreekUnits u) {
  return u == GreekUnits::Desk ? "vega per vol point, rho per basis point, theta per calendar day"
                               : "vega per unit vol, rho per unit rate, theta per year";
}

void add_risk_greeks(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base,
                     const GreekBumps& bumps, GreekUnits units) {
  if (!base.accuracy) {
    base.greeks = greeks_on(solver, product, options, base.price, base.nt, bumps);
    express_in(*base.greeks, units);
    return;
  }
  // Richardson's value: each Greek the same combination of its fine and coarse values as the
  // price, each grid's theta against its own price (the aged note on the fine grid against the
  // extrapolated price was theta plus the grid's error over one step: 18.8 for 12.1).
  const Accuracy& acc = *base.accuracy;
  options.grid.n = acc.n;  // the grid Richardson's value landed on (a target's, the default's)
  options.grid.axis_nodes.clear();
  RiskGreeks g = greeks_on(solver, product, options, acc.fine, base.nt, bumps);
  options.grid = scaled_nodes(options.grid, 0.5);
  const RiskGreeks coarse = greeks_on(solver, product, options, acc.coarse, base.nt, bumps);
  const double w = richardson_weight(product);
  for (std::size_t i = 0; i < g.vega.size(); ++i) g.vega[i] = richardson(g.vega[i], coarse.vega[i], w);
  g.rho = richardson(g.rho, coarse.rho, w);
  g.theta = richardson(g.theta, coarse.theta, w);
  express_in(g, units);
  base.greeks = g;
}

}  // namespace elsbench
