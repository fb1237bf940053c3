#include "products/payoff.hpp"

#include <stdexcept>
#include <string>

namespace elsbench {

PayoffTerms payoff_terms(const Product& p) {
  PayoffTerms t;
  if (p.dimension() < 1 || p.dimension() > kMaxAssets)
    throw std::invalid_argument(p.id + ": payoffs take 1 to " + std::to_string(kMaxAssets) + " underlyings");
  t.type = p.type;
  t.dim = p.dimension();
  t.worst_of = !p.is_els() || p.els().performance == Performance::WorstOf;
  for (int i = 0; i < t.dim; ++i) t.reference[i] = p.assets[static_cast<std::size_t>(i)].reference;
  t.notional = p.notional;
  if (p.is_els()) {
    if (p.els().autocall.empty() || p.els().autocall.size() > static_cast<std::size_t>(kMaxAutocallDates))
      throw std::invalid_argument(p.id + ": a note has 1 to " + std::to_string(kMaxAutocallDates) + " autocall dates");
    t.dummy_amount = p.notional * (1.0 + p.els().dummy_coupon);
    t.knock_in_barrier = p.els().knock_in.barrier;
    t.dates = static_cast<int>(p.els().autocall.size());
    for (int k = 0; k < t.dates; ++k) {
      const AutocallDate& d = p.els().autocall[static_cast<std::size_t>(k)];
      t.barrier[k] = d.barrier;
      t.amount[k] = p.notional * (1.0 + d.coupon);
    }
  } else {
    for (std::size_t i = 0; i < p.option().strikes.size() && i < 2; ++i) t.strike[i] = p.option().strikes[i];
    t.cash = p.option().cash;
  }
  return t;
}

}  // namespace elsbench
