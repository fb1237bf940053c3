// No-arbitrage bounds (products/price_bounds.hpp): they bracket every catalog product's closed form
// or stored reference, and the closed forms of every option type across volatilities 0.05-3,
// maturities 0.01-30, rates and dividend yields; each bound names its formula.
#include "products/price_bounds.hpp"

#include <boost/test/unit_test.hpp>
#include <cmath>

#include "products/catalog.hpp"
#include "reference/closed_form.hpp"
#include "reference/reference_value.hpp"

using namespace elsbench;

namespace {

// Closed forms in extreme corners (vol 3 over 30 years) lose a few digits to cancellation.
constexpr double kClosedFormRounding = 1e-7;

void check_brackets(const Product& p, double price, double stderr_allowance) {
  const PriceBounds b = price_bounds(p);
  const double rounding = kClosedFormRounding * b.scale;
  BOOST_TEST(b.lower.value <= b.upper.value, p.id);
  BOOST_TEST(price >= b.lower.value - stderr_allowance - rounding,
             p.id << ": " << price << " below " << b.lower.value << " (" << b.lower.formula << ")");
  BOOST_TEST(price <= b.upper.value + stderr_allowance + rounding,
             p.id << ": " << price << " above " << b.upper.value << " (" << b.upper.formula << ")");
  BOOST_TEST(!b.lower.formula.empty());
  BOOST_TEST(!b.upper.formula.empty());
}

}  // namespace

BOOST_AUTO_TEST_CASE(bounds_bracket_every_catalog_products_reference_with_room_to_spare) {
  for (const Product& p : load_catalog()) {
    const auto ref = reference_for(p);
    BOOST_REQUIRE_MESSAGE(ref, p.id << " has a closed form or a stored reference");
    check_brackets(p, ref->price, 3 * ref->std_error);
    // How close each reference lies to its bounds, as a fraction of the product's size: a default
    // pricing near a bound could be refused by rounding alone.
    const PriceBounds b = price_bounds(p);
    const double room = std::min(ref->price - b.lower.value, b.upper.value - ref->price) / b.scale;
    BOOST_TEST_MESSAGE(p.id << ": " << b.lower.value << " <= " << ref->price << " <= " << b.upper.value
                            << ", room " << room << " of " << b.scale);
    BOOST_TEST(room > 1e-3, p.id << " lies within 0.1 % of its scale of a bound");
  }
}

BOOST_AUTO_TEST_CASE(bounds_bracket_the_closed_forms_across_vols_maturities_rates_and_yields) {
  int checked = 0;
  for (const Product& base : load_catalog()) {
    if (base.is_els()) continue;
    for (double vol : {0.05, 0.3, 1.0, 3.0})
      for (double t : {0.01, 1.0, 30.0})
        for (double rate : {-0.05, 0.0, 0.05, 0.3})
          for (double q : {0.0, 0.04, 0.2}) {
            Product p = base;
            for (auto& a : p.assets) {
              a.vol = vol;
              a.div_yield = q;
            }
            p.assets.front().div_yield = q / 2;  // unequal yields
            p.option().maturity = t;
            p.rate = rate;
            const double price = closed_form_price(p).value();
            if (!std::isfinite(price)) continue;
            check_brackets(p, price, 0);
            ++checked;
          }
  }
  BOOST_TEST(checked > 1000);
}

BOOST_AUTO_TEST_CASE(each_bound_is_the_one_its_payoff_gives) {
  Product call = resolve_product("european-call");
  call.rate = -1;
  call.option().maturity = 1;
  PriceBounds b = price_bounds(call);
  BOOST_TEST(b.lower.value == 0.0);
  BOOST_TEST(b.lower.formula == "0, the payoff is never negative");
  BOOST_TEST(b.upper.value == call.assets[0].spot * std::exp(-call.assets[0].div_yield));
  // Deep in the money the intrinsic bound is the tighter one.
  call.rate = 0.05;
  call.option().strikes = {50};
  b = price_bounds(call);
  BOOST_TEST(b.lower.value == call.assets[0].spot * std::exp(-call.assets[0].div_yield) - 50 * std::exp(-0.05),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.lower.formula.find("S e^{-qT} - K e^{-rT}") == 0u);

  Product min_call = resolve_product("min-call");
  min_call.option().maturity = 30;
  min_call.assets[1].div_yield = 0.01;
  b = price_bounds(min_call);
  BOOST_TEST(b.upper.value == 100 * std::exp(-0.3), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.upper.formula == "min_i S_i e^{-q_i T}, the most a min call can be worth");

  const Product max_call = resolve_product("max-call");
  BOOST_TEST(price_bounds(max_call).upper.formula.find("sum_i S_i e^{-q_i T}") == 0u);
  const Product exchange = resolve_product("exchange");
  BOOST_TEST(price_bounds(exchange).upper.value == exchange.assets[0].spot * std::exp(-exchange.assets[0].div_yield *
                                                                                      exchange.option().maturity),
             boost::test_tools::tolerance(1e-12));
  const Product digital = resolve_product("cash-or-nothing-2");
  BOOST_TEST(price_bounds(digital).upper.value == digital.option().cash * std::exp(-digital.rate * digital.option().maturity),
             boost::test_tools::tolerance(1e-12));
  const Product put = resolve_product("european-put");
  BOOST_TEST(price_bounds(put).upper.value == put.option().strikes[0] * std::exp(-put.rate * put.option().maturity),
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_notes_bound_is_its_largest_redemption_discounted_from_its_date) {
  Product note = resolve_product("sample-2a-stepdown");
  double most = 0;
  for (const AutocallDate& d : note.els().autocall)
    most = std::max(most, note.notional * (1 + d.coupon) * std::exp(-note.rate * d.time));
  most = std::max(most, note.notional * std::max(1.0, 1 + note.els().dummy_coupon) * std::exp(-note.rate * note.maturity()));
  PriceBounds b = price_bounds(note);
  BOOST_TEST(b.lower.value == 0.0);
  BOOST_TEST(b.upper.value == most, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.scale == note.notional);
  // Under a negative rate the latest date's redemption grows most.
  note.rate = -0.5;
  b = price_bounds(note);
  const AutocallDate& last = note.els().autocall.back();
  BOOST_TEST(b.upper.value >= note.notional * (1 + last.coupon) * std::exp(0.5 * last.time) * (1 - 1e-12));
}

// The bound reads the note's events: a lizard that can still pay is one of its redemptions, one
// that cannot (the note has knocked in) is none; each coupon adds its amount, discounted from its
// date, or from maturity under a negative rate (memory may defer it).
BOOST_AUTO_TEST_CASE(a_lizard_that_can_pay_and_every_coupon_raise_the_bound) {
  Product note = resolve_product("lizard-2a");
  ElsTerms& els = note.els();
  const double when = els.autocall[static_cast<std::size_t>(els.lizard.autocall)].time;
  els.lizard.coupon = 0.9;  // above every autocall's and the dummy's
  const double lizard = note.notional * 1.9 * std::exp(-note.rate * when);
  BOOST_TEST(price_bounds(note).upper.value == lizard, boost::test_tools::tolerance(1e-12));
  els.knocked_in = true;
  BOOST_TEST(price_bounds(note).upper.value < lizard * 0.9);
  els.knocked_in = false;
  els.coupons = {12, 0.7, 0.01, false};  // 36 coupons of 1 over three years
  double coupons = 0;
  for (double t : note.coupon_dates()) coupons += note.notional * 0.01 * std::exp(-note.rate * t);
  BOOST_TEST(price_bounds(note).upper.value == lizard + coupons, boost::test_tools::tolerance(1e-12));
  note.rate = -0.1;
  const double deferred = 36 * note.notional * 0.01 * std::exp(0.1 * note.maturity());
  BOOST_TEST(price_bounds(note).upper.value ==
                 note.notional * 1.9 * std::exp(0.1 * when) + deferred, boost::test_tools::tolerance(1e-12));
}
