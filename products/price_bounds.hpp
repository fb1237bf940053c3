#pragma once
// Model-free (no-arbitrage) bounds on a product's price at time 0, from its payoff alone
// (products/payoff.hpp) and the flat rate and dividend yields: whatever the volatilities and
// correlations, a price outside [lower, upper] is not a price of this product. price_with refuses
// such a price as unconverged (solvers/contract/price.cpp). Each product's bounds are listed in
// docs/accuracy.md, "Verdicts and bounds", and each bound names its formula (price_bounds.cpp).
#include <string>

#include "products/product.hpp"

namespace elsbench {

struct PriceBound {
  double value = 0;
  std::string formula;  // e.g. "min_i S_i e^{-q_i T}, the most a min call can be worth"
};

struct PriceBounds {
  PriceBound lower, upper;  // every product here has a bounded payoff or an asset bound
  double scale = 1;         // the product's size (spots, strikes, cash, notional): rounding slack is relative to it
};

PriceBounds price_bounds(const Product& product);

}  // namespace elsbench
