// The closed-form Greeks the solvers' Greeks are tested against: the differenced closed forms
// agree with Black–Scholes' analytic Greeks, and the two-asset ones obey identities a wrong
// differencing would break (Margrabe is homogeneous of degree one in the spots; the min call and
// the max call sum to two calls).
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/catalog.hpp"
#include "products/product_bumps.hpp"
#include "reference/closed_form_greeks.hpp"

using namespace elsbench;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(differenced_closed_form_matches_analytic_black_scholes) {
  const Product call = resolve_product("european-call");
  const auto& u = call.assets[0];
  const ClosedFormGreeks exact = black_scholes_call_greeks({u.spot, u.vol, u.div_yield}, call.option().strikes[0],
                                                           call.option().maturity, call.rate);
  const ClosedFormGreeks diff = closed_form_greeks(call).value();
  BOOST_TEST(diff.price == exact.price, tt::tolerance(1e-12));
  BOOST_TEST(diff.delta[0] == exact.delta[0], tt::tolerance(1e-7));
  BOOST_TEST(diff.gamma[0] == exact.gamma[0], tt::tolerance(1e-5));
  BOOST_TEST(diff.vega[0] == exact.vega[0], tt::tolerance(1e-7));
  BOOST_TEST(diff.rho == exact.rho, tt::tolerance(1e-7));
  BOOST_TEST(diff.theta == exact.theta, tt::tolerance(1e-6));
  BOOST_TEST(exact.theta < 0);
}

BOOST_AUTO_TEST_CASE(two_asset_identities) {
  // Margrabe: V = S1 dV/dS1 + S2 dV/dS2 (degree one), and no rate dependence without dividends' carry.
  const Product ex = resolve_product("exchange");
  const ClosedFormGreeks g = closed_form_greeks(ex).value();
  BOOST_TEST(ex.assets[0].spot * g.delta[0] + ex.assets[1].spot * g.delta[1] == g.price, tt::tolerance(1e-7));
  BOOST_TEST(std::abs(g.rho) < 1e-6);
  // min call + max call = call on S1 + call on S2, Greek by Greek.
  const Product mn = resolve_product("min-call"), mx = resolve_product("max-call");
  const ClosedFormGreeks a = closed_form_greeks(mn).value(), b = closed_form_greeks(mx).value();
  double calls_vega0 = 0, calls_delta1 = 0;
  {
    const auto& u = mn.assets[0];
    calls_vega0 = black_scholes_call_greeks({u.spot, u.vol, u.div_yield}, mn.option().strikes[0], mn.option().maturity, mn.rate).vega[0];
    const auto& w = mn.assets[1];
    calls_delta1 = black_scholes_call_greeks({w.spot, w.vol, w.div_yield}, mn.option().strikes[0], mn.option().maturity, mn.rate).delta[0];
  }
  BOOST_TEST(a.vega[0] + b.vega[0] == calls_vega0, tt::tolerance(1e-6));
  BOOST_TEST(a.delta[1] + b.delta[1] == calls_delta1, tt::tolerance(1e-6));
}
