#pragma once
// Model-free (no-arbitrage) bounds on a product's price at time 0, from its payoff alone
// (products/payoff.hpp) and the flat rate and dividend yields: whatever the volatilities and
// correlations, a price outside [lower, upper] is not a price of this product. price_with refuses
// such a price as unconverged (solvers/contract/price.cpp).
//
//   european call  max(0, S e^{-qT} - K e^{-rT})        <= C <= S e^{-qT}
//   european put   max(0, K e^{-rT} - S e^{-qT})        <= P <= K e^{-rT}
//   min call       0                                    <= C <= min_i S_i e^{-q_i T}
//   max call       max(0, max_i S_i e^{-q_i T} - K e^{-rT}) <= C <= sum_i S_i e^{-q_i T}
//   min put        max(0, K e^{-rT} - min_i S_i e^{-q_i T}) <= P <= K e^{-rT}
//   max put        max(0, K e^{-rT} - sum_i S_i e^{-q_i T}) <= P <= K e^{-rT}
//   exchange       max(0, S1 e^{-q1 T} - S2 e^{-q2 T})  <= V <= S1 e^{-q1 T}
//   cash-or-nothing 0                                   <= V <= cash e^{-rT}
//   step-down ELS  0                                    <= V <= the largest redemption discounted
//                  from its date: max(max_k notional (1 + c_k) e^{-r t_k}, notional max(1, 1 + dummy) e^{-rT})
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
