#pragma once
// Closed forms for the validation products of docs/products.md, in Black–Scholes with continuous dividend
// yields q (cost of carry b = r - q, as in Haug, "The Complete Guide to Option Pricing Formulas").
// Payoffs are per unit: the product's notional does not scale them, as in products/payoff.hpp.
#include <optional>
#include <string>

#include "products/product.hpp"

namespace elsbench {

// One underlying: spot, volatility, continuous dividend yield.
struct AssetParams {
  double spot = 0;
  double vol = 0;
  double div_yield = 0;
};

// Two correlated underlyings under one flat rate.
struct TwoAssetMarket {
  AssetParams first, second;
  double rho = 0;
  double rate = 0;
};

double black_scholes_call(const AssetParams& s, double strike, double maturity, double rate);
double black_scholes_put(const AssetParams& s, double strike, double maturity, double rate);

// Stulz (1982): max(min(S1, S2) - K, 0) and max(max(S1, S2) - K, 0).
double stulz_min_call(const TwoAssetMarket& m, double strike, double maturity);
double stulz_max_call(const TwoAssetMarket& m, double strike, double maturity);
// max(K - min(S1, S2), 0) and max(K - max(S1, S2), 0), by put-call parity with the zero-strike
// call, which is an exchange option.
double stulz_min_put(const TwoAssetMarket& m, double strike, double maturity);
double stulz_max_put(const TwoAssetMarket& m, double strike, double maturity);

// Margrabe (1978): max(S1 - S2, 0).
double margrabe_exchange(const TwoAssetMarket& m, double maturity);

// Heynen–Kat (1996): pays `cash` if S1 > K1 and S2 > K2 at maturity.
double two_asset_cash_or_nothing(const TwoAssetMarket& m, double strike1, double strike2,
                                 double cash, double maturity);

// The closed-form price of a validation product; nullopt for a step-down ELS, which has none.
std::optional<double> closed_form_price(const Product& product);
// Which formula prices this type, for provenance ("" for a step-down ELS).
std::string closed_form_name(ProductType type);

}  // namespace elsbench
