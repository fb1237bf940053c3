#include "reference/closed_form_greeks.hpp"

#include <cmath>
#include <numbers>

#include "products/product_bumps.hpp"

namespace elsbench {
namespace {

double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * std::numbers::pi); }
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double price(const Product& p) { return closed_form_price(p).value(); }

// First and second derivatives of f at x by the five-point central stencils (error O(h^4)).
template <class F>
std::pair<double, double> differences(F f, double x, double h) {
  const double up2 = f(x + 2 * h), up = f(x + h), mid = f(x), down = f(x - h), down2 = f(x - 2 * h);
  return {(8 * (up - down) - (up2 - down2)) / (12 * h),
          (-up2 + 16 * up - 30 * mid + 16 * down - down2) / (12 * h * h)};
}

}  // namespace

ClosedFormGreeks black_scholes_call_greeks(const AssetParams& s, double strike, double maturity, double rate) {
  const double root_t = std::sqrt(maturity);
  const double d1 = (std::log(s.spot / strike) + (rate - s.div_yield + 0.5 * s.vol * s.vol) * maturity) / (s.vol * root_t);
  const double d2 = d1 - s.vol * root_t;
  const double carry = std::exp(-s.div_yield * maturity), disc = std::exp(-rate * maturity);
  ClosedFormGreeks g;
  g.price = black_scholes_call(s, strike, maturity, rate);
  g.delta = {carry * normal_cdf(d1)};
  g.gamma = {carry * normal_pdf(d1) / (s.spot * s.vol * root_t)};
  g.vega = {s.spot * carry * normal_pdf(d1) * root_t};
  g.rho = strike * maturity * disc * normal_cdf(d2);
  g.theta = -s.spot * carry * normal_pdf(d1) * s.vol / (2 * root_t) + s.div_yield * s.spot * carry * normal_cdf(d1) -
            rate * strike * disc * normal_cdf(d2);
  return g;
}

std::optional<ClosedFormGreeks> closed_form_greeks(const Product& p) {
  if (!closed_form_price(p)) return std::nullopt;
  ClosedFormGreeks g;
  g.price = price(p);
  for (int i = 0; i < p.dimension(); ++i) {
    const double spot = p.assets[static_cast<std::size_t>(i)].spot, vol = p.assets[static_cast<std::size_t>(i)].vol;
    const auto [delta, gamma] = differences([&](double x) { return price(with_spot(p, i, x)); }, spot, 1e-3 * spot);
    g.delta.push_back(delta);
    g.gamma.push_back(gamma);
    g.vega.push_back(differences([&](double x) { return price(with_vol(p, i, x)); }, vol, 1e-5).first);
  }
  g.rho = differences([&](double x) { return price(with_rate(p, x)); }, p.rate, 1e-5).first;
  // d/dt at fixed spots is minus d/d(maturity): ageing by +h shortens every date.
  g.theta = differences([&](double h) { return price(aged(p, h)); }, 0.0, 1e-5).first;
  return g;
}

}  // namespace elsbench
