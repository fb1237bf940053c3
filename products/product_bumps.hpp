#pragma once
// A product's terms moved by a bump, for Greeks by bump-and-reprice: one asset's spot or
// volatility, the rate, or the whole note aged (every date moved closer by dt, the spot kept).
#include "products/product.hpp"

namespace elsbench {

Product with_spot(Product p, int asset, double spot);
Product with_vol(Product p, int asset, double vol);
Product with_rate(Product p, double rate);
// Every date (autocall dates, maturity) dt earlier: the product as it stands dt later in calendar
// time, if the spots have not moved. Throws std::invalid_argument when a date would not stay > 0.
Product aged(Product p, double dt);

}  // namespace elsbench
