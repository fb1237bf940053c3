#include "solvers/contract/risk_greeks.hpp"

#include "products/product_bumps.hpp"
#include "solvers/contract/price.hpp"

namespace elsbench {

void add_risk_greeks(const SolverInfo& solver, const Product& product, SolverOptions options, PriceResult& base,
                     const GreekBumps& bumps) {
  options.grid.nt = static_cast<int>(base.nt);
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
  // One step of the base grid: the aged product on the same step size, one step fewer.
  g.theta_dt = product.maturity() / static_cast<double>(base.nt);
  options.grid.nt = static_cast<int>(base.nt) - 1;
  g.theta = (price(aged(product, g.theta_dt)) - base.price) / g.theta_dt;
  base.greeks = g;
}

}  // namespace elsbench
