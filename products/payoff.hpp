#pragma once
// Payoff semantics of DESIGN.md, written once and shared by the PDE builder and Monte Carlo.
#include <algorithm>
#include <cmath>
#include <span>

#include "products/product.hpp"

namespace elsbench {

// min (worst-of) or max (best-of) over assets of S_i / reference_i.
inline double performance(const Product& p, std::span<const double> spots) {
  const bool worst = p.els.performance == Performance::WorstOf;
  double perf = worst ? INFINITY : -INFINITY;
  for (std::size_t i = 0; i < spots.size(); ++i) {
    const double x = spots[i] / p.assets[i].reference;
    perf = worst ? std::min(perf, x) : std::max(perf, x);
  }
  return perf;
}

// Strict: knock-in happens when performance < barrier at a monitoring date.
inline bool knocks_in(const Product& p, double perf) { return perf < p.els.knock_in.barrier; }

inline bool autocalls(const AutocallDate& d, double perf) { return perf >= d.barrier; }

inline double autocall_amount(const Product& p, const AutocallDate& d) {
  return p.notional * (1.0 + d.coupon);
}

// Redemption at maturity for a note that was not redeemed early.
inline double maturity_amount(const Product& p, double perf, bool knocked_in) {
  const AutocallDate& last = p.els.autocall.back();
  if (autocalls(last, perf)) return autocall_amount(p, last);
  if (!knocked_in) return p.notional * (1.0 + p.els.dummy_coupon);
  return p.notional * std::min(1.0, perf);
}

// Payoff at maturity of the validation products (spots at T).
inline double option_payoff(const Product& p, std::span<const double> s) {
  const auto& k = p.option.strikes;
  switch (p.type) {
    case ProductType::EuropeanCall: return std::max(s[0] - k[0], 0.0);
    case ProductType::EuropeanPut: return std::max(k[0] - s[0], 0.0);
    case ProductType::MinCall: return std::max(std::min(s[0], s[1]) - k[0], 0.0);
    case ProductType::MaxCall: return std::max(std::max(s[0], s[1]) - k[0], 0.0);
    case ProductType::MinPut: return std::max(k[0] - std::min(s[0], s[1]), 0.0);
    case ProductType::MaxPut: return std::max(k[0] - std::max(s[0], s[1]), 0.0);
    case ProductType::Exchange: return std::max(s[0] - s[1], 0.0);
    case ProductType::CashOrNothing2:
      return (s[0] > k[0] && s[1] > k[1]) ? p.option.cash : 0.0;
    case ProductType::StepdownEls: break;
  }
  return 0.0;
}

}  // namespace elsbench
