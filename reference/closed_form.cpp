#include "reference/closed_form.hpp"

#include <cmath>

#include "reference/bivariate_normal.hpp"

namespace elsbench {
namespace {

// S e^{-qT}: the spot carried to maturity and discounted back, e^{(b - r)T} S in Haug's notation.
double carried_spot(const AssetParams& s, double maturity) {
  return s.spot * std::exp(-s.div_yield * maturity);
}

double discount(double rate, double maturity) { return std::exp(-rate * maturity); }

// d1 of Black–Scholes; Stulz's y_i is the same quantity for asset i.
double d1(const AssetParams& s, double strike, double maturity, double rate) {
  return (std::log(s.spot / strike) + (rate - s.div_yield + 0.5 * s.vol * s.vol) * maturity) /
         (s.vol * std::sqrt(maturity));
}

// The exchange and min/max formulas see the pair through log(S1/S2), whose volatility is this.
double ratio_vol(const TwoAssetMarket& m) {
  const double v1 = m.first.vol, v2 = m.second.vol;
  return std::sqrt(v1 * v1 + v2 * v2 - 2 * m.rho * v1 * v2);
}

// d1 of the option to receive S1 for S2 (Margrabe); Stulz's d.
double exchange_d1(const TwoAssetMarket& m, double maturity) {
  const double v = ratio_vol(m);
  return (std::log(m.first.spot / m.second.spot) +
          (m.second.div_yield - m.first.div_yield + 0.5 * v * v) * maturity) /
         (v * std::sqrt(maturity));
}

TwoAssetMarket swapped(const TwoAssetMarket& m) { return {m.second, m.first, m.rho, m.rate}; }

// Arguments shared by Stulz's min and max formulas: y_i for each asset against the strike, d for
// the ratio S1/S2, and the correlations rho_i of each asset with that ratio.
struct StulzTerms {
  double y1, y2, d, rho1, rho2;
  double v1_sqrt_t, v2_sqrt_t, v_sqrt_t;
};

StulzTerms stulz_terms(const TwoAssetMarket& m, double strike, double maturity) {
  const double sqrt_t = std::sqrt(maturity);
  const double v = ratio_vol(m);
  StulzTerms t;
  t.y1 = d1(m.first, strike, maturity, m.rate);
  t.y2 = d1(m.second, strike, maturity, m.rate);
  t.d = exchange_d1(m, maturity);
  t.rho1 = (m.first.vol - m.rho * m.second.vol) / v;
  t.rho2 = (m.second.vol - m.rho * m.first.vol) / v;
  t.v1_sqrt_t = m.first.vol * sqrt_t;
  t.v2_sqrt_t = m.second.vol * sqrt_t;
  t.v_sqrt_t = v * sqrt_t;
  return t;
}

// Zero-strike calls: min(S1, S2) = S2 - max(S2 - S1, 0) and max(S1, S2) = S1 + max(S2 - S1, 0).
double min_forward(const TwoAssetMarket& m, double maturity) {
  return carried_spot(m.second, maturity) - margrabe_exchange(swapped(m), maturity);
}
double max_forward(const TwoAssetMarket& m, double maturity) {
  return carried_spot(m.first, maturity) + margrabe_exchange(swapped(m), maturity);
}

AssetParams asset_params(const Underlying& u) { return {u.spot, u.vol, u.div_yield}; }

TwoAssetMarket two_asset_market(const Product& p) {
  return {asset_params(p.assets[0]), asset_params(p.assets[1]), p.correlation[0][1], p.rate};
}

}  // namespace

double black_scholes_call(const AssetParams& s, double strike, double maturity, double rate) {
  const double a = d1(s, strike, maturity, rate);
  const double b = a - s.vol * std::sqrt(maturity);
  return carried_spot(s, maturity) * normal_cdf(a) -
         strike * discount(rate, maturity) * normal_cdf(b);
}

double black_scholes_put(const AssetParams& s, double strike, double maturity, double rate) {
  const double a = d1(s, strike, maturity, rate);
  const double b = a - s.vol * std::sqrt(maturity);
  return strike * discount(rate, maturity) * normal_cdf(-b) -
         carried_spot(s, maturity) * normal_cdf(-a);
}

double stulz_min_call(const TwoAssetMarket& m, double strike, double maturity) {
  const StulzTerms t = stulz_terms(m, strike, maturity);
  return carried_spot(m.first, maturity) * bivariate_normal_cdf(t.y1, -t.d, -t.rho1) +
         carried_spot(m.second, maturity) * bivariate_normal_cdf(t.y2, t.d - t.v_sqrt_t, -t.rho2) -
         strike * discount(m.rate, maturity) *
             bivariate_normal_cdf(t.y1 - t.v1_sqrt_t, t.y2 - t.v2_sqrt_t, m.rho);
}

double stulz_max_call(const TwoAssetMarket& m, double strike, double maturity) {
  const StulzTerms t = stulz_terms(m, strike, maturity);
  const double both_below = bivariate_normal_cdf(-t.y1 + t.v1_sqrt_t, -t.y2 + t.v2_sqrt_t, m.rho);
  return carried_spot(m.first, maturity) * bivariate_normal_cdf(t.y1, t.d, t.rho1) +
         carried_spot(m.second, maturity) * bivariate_normal_cdf(t.y2, -t.d + t.v_sqrt_t, t.rho2) -
         strike * discount(m.rate, maturity) * (1 - both_below);
}

double stulz_min_put(const TwoAssetMarket& m, double strike, double maturity) {
  return strike * discount(m.rate, maturity) - min_forward(m, maturity) +
         stulz_min_call(m, strike, maturity);
}

double stulz_max_put(const TwoAssetMarket& m, double strike, double maturity) {
  return strike * discount(m.rate, maturity) - max_forward(m, maturity) +
         stulz_max_call(m, strike, maturity);
}

double margrabe_exchange(const TwoAssetMarket& m, double maturity) {
  const double d = exchange_d1(m, maturity);
  return carried_spot(m.first, maturity) * normal_cdf(d) -
         carried_spot(m.second, maturity) * normal_cdf(d - ratio_vol(m) * std::sqrt(maturity));
}

double two_asset_cash_or_nothing(const TwoAssetMarket& m, double strike1, double strike2,
                                 double cash, double maturity) {
  // d2 of each asset: the risk-neutral probability of finishing above its strike is N(d2).
  const double sqrt_t = std::sqrt(maturity);
  const double d2_1 = d1(m.first, strike1, maturity, m.rate) - m.first.vol * sqrt_t;
  const double d2_2 = d1(m.second, strike2, maturity, m.rate) - m.second.vol * sqrt_t;
  return cash * discount(m.rate, maturity) * bivariate_normal_cdf(d2_1, d2_2, m.rho);
}

std::optional<double> closed_form_price(const Product& p) {
  const double T = p.is_els() ? 0.0 : p.option().maturity;  // an ELS has no closed form (below)
  const auto strike = [&] { return p.option().strikes.at(0); };
  switch (p.type) {
    case ProductType::StepdownEls:
      return std::nullopt;
    case ProductType::EuropeanCall:
      return black_scholes_call(asset_params(p.assets[0]), strike(), T, p.rate);
    case ProductType::EuropeanPut:
      return black_scholes_put(asset_params(p.assets[0]), strike(), T, p.rate);
    case ProductType::MinCall:
      return stulz_min_call(two_asset_market(p), strike(), T);
    case ProductType::MaxCall:
      return stulz_max_call(two_asset_market(p), strike(), T);
    case ProductType::MinPut:
      return stulz_min_put(two_asset_market(p), strike(), T);
    case ProductType::MaxPut:
      return stulz_max_put(two_asset_market(p), strike(), T);
    case ProductType::Exchange:
      return margrabe_exchange(two_asset_market(p), T);
    case ProductType::CashOrNothing2:
      return two_asset_cash_or_nothing(two_asset_market(p), p.option().strikes.at(0),
                                       p.option().strikes.at(1), p.option().cash, T);
  }
  return std::nullopt;
}

std::string closed_form_name(ProductType type) {
  switch (type) {
    case ProductType::StepdownEls:
      return "";
    case ProductType::EuropeanCall:
      return "Black-Scholes-Merton call";
    case ProductType::EuropeanPut:
      return "Black-Scholes-Merton put";
    case ProductType::MinCall:
      return "Stulz (1982) call on the minimum of two assets";
    case ProductType::MaxCall:
      return "Stulz (1982) call on the maximum of two assets";
    case ProductType::MinPut:
      return "Stulz (1982) put on the minimum of two assets (parity with Margrabe)";
    case ProductType::MaxPut:
      return "Stulz (1982) put on the maximum of two assets (parity with Margrabe)";
    case ProductType::Exchange:
      return "Margrabe (1978) exchange option";
    case ProductType::CashOrNothing2:
      return "Heynen-Kat (1996) two-asset cash-or-nothing";
  }
  return "";
}

}  // namespace elsbench
