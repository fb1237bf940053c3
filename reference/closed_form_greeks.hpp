#pragma once
// Greeks of the validation products from their closed forms, to check the solvers' Greeks against.
// Black–Scholes has them analytically. For Stulz and Margrabe they are taken by five-point central
// differences (error O(h^4)) of the closed-form price with bumps far smaller than any grid's
// (relative 1e-3 in spot, 1e-5 in vol, rate and time), orders below the tolerances they are tested
// with; the analytic Black–Scholes Greeks check the differencing (tests/unit/closed_form_greeks.cpp).
// Units: vega per unit of volatility, rho per unit of rate, theta per year of calendar time
// (dV/dt at fixed spots: the value lost as the product ages).
#include <optional>
#include <vector>

#include "products/product.hpp"
#include "reference/closed_form.hpp"

namespace elsbench {

struct ClosedFormGreeks {
  double price = 0;
  std::vector<double> delta, gamma, vega;  // per asset
  double rho = 0, theta = 0;
};

ClosedFormGreeks black_scholes_call_greeks(const AssetParams& s, double strike, double maturity, double rate);

// Nothing for a product without a closed form (the step-down ELS).
std::optional<ClosedFormGreeks> closed_form_greeks(const Product& product);

}  // namespace elsbench
