#include "products/product_bumps.hpp"

#include <stdexcept>

namespace elsbench {

Product with_spot(Product p, int asset, double spot) {
  p.assets.at(static_cast<std::size_t>(asset)).spot = spot;
  return p;
}

Product with_vol(Product p, int asset, double vol) {
  if (!(vol > 0)) throw std::invalid_argument("a volatility bump must leave the volatility > 0");
  p.assets.at(static_cast<std::size_t>(asset)).vol = vol;
  return p;
}

Product with_rate(Product p, double rate) {
  p.rate = rate;
  return p;
}

Product aged(Product p, double dt) {
  const auto earlier = [dt](double& t) {
    t -= dt;
    if (!(t > 0)) throw std::invalid_argument("ageing by dt moves a date to or before today");
  };
  if (p.is_els()) {
    for (auto& a : p.els().autocall) earlier(a.time);
    // A calendar's monitoring dates move too; those now past are no longer observed.
    std::vector<double> ahead;
    for (double t : p.els().knock_in.dates)
      if (t - dt > 0) ahead.push_back(t - dt);
    p.els().knock_in.dates = std::move(ahead);
  } else {
    earlier(p.option().maturity);
  }
  return p;
}

}  // namespace elsbench
