#include "solvers/contract/error_target.hpp"

#include <cmath>
#include <stdexcept>

#include "products/price_bounds.hpp"

namespace elsbench {

double ErrorTarget::in_price_units(const Product& product) const {
  return basis_points ? value * 1e-4 * price_bounds(product).scale : value;
}

ErrorTarget parse_error_target(const std::string& text) {
  ErrorTarget t;
  t.text = text;
  std::string number = text;
  if (number.size() > 2 && number.compare(number.size() - 2, 2, "bp") == 0) {
    t.basis_points = true;
    number.resize(number.size() - 2);
  }
  std::size_t used = 0;
  try {
    t.value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size() || !(t.value > 0) || !std::isfinite(t.value))
    throw std::invalid_argument("'" + text + "': expected a positive amount (0.01) or basis points of the notional (0.5bp)");
  return t;
}

}  // namespace elsbench
