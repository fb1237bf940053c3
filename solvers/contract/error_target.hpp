#pragma once
// What a caller asks of a price's accuracy (--target-error): read apart from the pricing that
// meets it (accuracy.hpp), so that the preset and flag readers need no solver.
#include <string>

#include "products/product.hpp"

namespace elsbench {

// An error target: a price amount ("0.01") or basis points of the note's notional, or of an
// option's size, its largest spot, strike or cash ("0.5bp"). Throws std::invalid_argument.
struct ErrorTarget {
  double value = 0;
  bool basis_points = false;
  std::string text;
  double in_price_units(const Product& product) const;
};
ErrorTarget parse_error_target(const std::string& text);

}  // namespace elsbench
