#include "products/price_bounds.hpp"

#include <algorithm>
#include <cmath>

#include "products/note_events.hpp"

namespace elsbench {
namespace {

// S_i e^{-q_i T}: the asset delivered at T, bought today.
double forward_asset(const Product& p, std::size_t i, double t) {
  const Underlying& a = p.assets.at(i);
  return a.spot * std::exp(-a.div_yield * t);
}

PriceBound non_negative() { return {0, "0, the payoff is never negative"}; }

// max(0, value): the payoff is never negative; whichever is larger names the bound.
PriceBound at_least_zero(double value, const std::string& formula, const std::string& product) {
  if (value > 0) return {value, formula + ", the least " + product + " is worth"};
  return non_negative();
}

PriceBounds option_bounds(const Product& p) {
  const double t = p.option().maturity;
  const double strike = p.option().strikes.empty() ? 0.0 : p.option().strikes.front();
  const double bond = std::exp(-p.rate * t);  // e^{-rT}
  const double k = strike * bond;
  PriceBounds b;
  b.scale = std::max(strike, p.option().cash);
  for (const Underlying& a : p.assets) b.scale = std::max(b.scale, a.spot);
  const double s1 = forward_asset(p, 0, t);
  const double s2 = p.dimension() > 1 ? forward_asset(p, 1, t) : s1;
  switch (p.type) {
    case ProductType::EuropeanCall:
      b.lower = at_least_zero(s1 - k, "S e^{-qT} - K e^{-rT}", "a call");
      b.upper = {s1, "S e^{-qT}, the most a call can be worth"};
      break;
    case ProductType::EuropeanPut:
      b.lower = at_least_zero(k - s1, "K e^{-rT} - S e^{-qT}", "a put");
      b.upper = {k, "K e^{-rT}, the most a put can be worth"};
      break;
    case ProductType::MinCall:
      b.lower = non_negative();
      b.upper = {std::min(s1, s2), "min_i S_i e^{-q_i T}, the most a min call can be worth"};
      break;
    case ProductType::MaxCall:
      b.lower = at_least_zero(std::max(s1, s2) - k, "max_i S_i e^{-q_i T} - K e^{-rT}", "a max call");
      b.upper = {s1 + s2, "sum_i S_i e^{-q_i T}, the most a max call can be worth"};
      break;
    case ProductType::MinPut:
      b.lower = at_least_zero(k - std::min(s1, s2), "K e^{-rT} - min_i S_i e^{-q_i T}", "a min put");
      b.upper = {k, "K e^{-rT}, the most a min put can be worth"};
      break;
    case ProductType::MaxPut:
      b.lower = at_least_zero(k - (s1 + s2), "K e^{-rT} - sum_i S_i e^{-q_i T}", "a max put");
      b.upper = {k, "K e^{-rT}, the most a max put can be worth"};
      break;
    case ProductType::Exchange:
      b.lower = at_least_zero(s1 - s2, "S1 e^{-q1 T} - S2 e^{-q2 T}", "an exchange option");
      b.upper = {s1, "S1 e^{-q1 T}, the most an exchange option can be worth"};
      break;
    case ProductType::CashOrNothing2:
      b.lower = non_negative();
      b.upper = {p.option().cash * bond, "cash e^{-rT}, the most a two-asset digital can be worth"};
      break;
    case ProductType::StepdownEls: break;
  }
  return b;
}

// Every redemption is one of the note's redemptions (an autocall's, a lizard's) on its date, or at
// maturity the dummy amount or notional x min(performance, 1) <= notional; none is negative
// (coupons lie above -1). At most one coupon a date in all; memory pays missed ones later, so at
// a negative rate a coupon may be worth up to its discount at maturity.
PriceBounds els_bounds(const Product& p) {
  PriceBounds b;
  b.scale = std::abs(p.notional);
  b.lower = non_negative();
  const double t = p.maturity();
  double most = p.notional * std::max(1.0, 1.0 + p.els().dummy_coupon) * std::exp(-p.rate * t);
  double coupons = 0;
  for (const NoteEvent& e : note_events(p)) {
    const double now = std::exp(-p.rate * e.time);
    if (payment(e.kind) == EventPayment::Redemption) most = std::max(most, e.amount * now);
    if (payment(e.kind) == EventPayment::Coupon) coupons += e.amount * std::max(now, std::exp(-p.rate * t));
  }
  b.upper = {most + coupons, "the largest redemption (an autocall's, a lizard's) discounted from its date, notional x max(1 + c_k) e^{-r t_k}, "
                             "and every periodic coupon, the most the note can be worth"};
  return b;
}

}  // namespace

PriceBounds price_bounds(const Product& product) {
  return product.is_els() ? els_bounds(product) : option_bounds(product);
}

}  // namespace elsbench
